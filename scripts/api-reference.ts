/**
 * `npm run docs:api`: writes the API reference to docs/api/ from the route definitions: openapi.json (the document a
 * production API serves) and reference.md (readable, one section per tag). Commit both; a test fails when they are
 * not current (server/api-reference/api-reference.test.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { API_REFERENCE_DIR, apiReferenceFiles } from '../server/api-reference/document';

const files = await apiReferenceFiles();
await mkdir(API_REFERENCE_DIR, { recursive: true });
for (const [name, text] of Object.entries(files)) {
  await writeFile(path.join(API_REFERENCE_DIR, name), text);
  console.info(`[docs:api] wrote ${path.relative(process.cwd(), path.join(API_REFERENCE_DIR, name))}`);
}
// The app's background work (Database Copy's service) is not needed here and must not keep the process alive.
process.exit(0);
