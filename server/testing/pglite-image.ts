import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

/**
 * The files of a new, empty PGlite cluster, for `openPgliteDatabase(dir, image)`. Creating a cluster (PGlite's
 * initdb) takes about 4 s of a core; starting from these files about 1 s. A test run (test/setup/pglite-image.ts) and
 * a `bench:smoke` run each make it once for every database they open. It holds what a new cluster holds: whoever
 * opens one still migrates it.
 */
export async function writeEmptyPgliteCluster(file: string): Promise<void> {
  const pglite = await PGlite.create();
  await writeFile(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
}

export async function readPgliteImage(file: string): Promise<Blob> {
  return new Blob([await readFile(file)]);
}
