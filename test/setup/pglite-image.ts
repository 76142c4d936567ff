import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeEmptyPgliteCluster } from '../../server/testing/pglite-image';

/**
 * Global setup of the integration tests: the files of a new, empty PGlite cluster, made once
 * (server/testing/pglite-image.ts); every suite's database starts from them (server/testing/test-database.ts).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(path.join(tmpdir(), 'lpa-pglite-image-'));
  const file = path.join(directory, 'empty-cluster.tar');
  await writeEmptyPgliteCluster(file);
  project.provide('pgliteImage', file);
  return () => rmSync(directory, { recursive: true, force: true });
}
