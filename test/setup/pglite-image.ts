import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

/**
 * Global setup of the integration tests: the files of a new, empty PGlite cluster, made once. Creating a cluster
 * (PGlite's initdb) took about 4 s of a core for every database a suite opened, ~1 s when started from these files
 * (server/testing/test-database.ts). The image is what a new cluster holds: each suite still migrates its own.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(path.join(tmpdir(), 'lpa-pglite-image-'));
  const file = path.join(directory, 'empty-cluster.tar');
  const pglite = await PGlite.create();
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
  project.provide('pgliteImage', file);
  return () => rmSync(directory, { recursive: true, force: true });
}
