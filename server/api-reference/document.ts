import path from 'node:path';
import { createApp } from '../app';
import { REPO_ROOT } from '../config';
import type { Db } from '../db/db';
import { renderReference, type OpenApiDocument } from './markdown';

/** The committed reference (`npm run docs:api` writes it; api-reference.test.ts fails when it is not current). */
export const API_REFERENCE_DIR = path.join(REPO_ROOT, 'docs', 'api');

const noDatabase = {
  query: () => Promise.reject(new Error('the OpenAPI document needs no database')),
} as unknown as Db;

/**
 * The document a production API serves at /openapi.json: built from the same route definitions, without the
 * development-only routes (/dev/…), which exist only with DEV_SEED=1.
 */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const app = createApp({
    db: noDatabase,
    verifyIdToken: () => Promise.reject(new Error('the OpenAPI document signs nobody in')),
    session: { secret: new Uint8Array(32), ttlSeconds: 60 },
    corsOrigins: [],
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  const response = await app.request('/openapi.json');
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/** The files of docs/api/, by name. The JSON keeps the document's own order (paths as registered), two-space indent. */
export async function apiReferenceFiles(): Promise<Record<string, string>> {
  const document = await openApiDocument();
  return {
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'reference.md': renderReference(document),
  };
}
