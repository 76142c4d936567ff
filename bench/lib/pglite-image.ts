import { readPgliteImage } from '../../server/testing/pglite-image';

/**
 * `bench:smoke` makes a new PGlite cluster's files once and names them in this variable; a bench opening PGlite
 * starts from them (about 1 s) instead of creating a cluster (about 4 s of a core). A bench run alone creates its own:
 * what it measures comes after the opening either way.
 */
export const PGLITE_IMAGE_ENV = 'LPA_BENCH_PGLITE_IMAGE';

let image: Promise<Blob | undefined> | undefined;

export function benchPgliteImage(): Promise<Blob | undefined> {
  const file = process.env[PGLITE_IMAGE_ENV];
  image ??= file ? readPgliteImage(file) : Promise.resolve(undefined);
  return image;
}
