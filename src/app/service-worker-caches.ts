/**
 * The service worker's caches (vite.config.ts builds the worker with Workbox). The precache holds only the built app
 * shell (HTML, scripts, styles, the enforcement worker), no user data; every other cache is a runtime cache, which
 * may hold what the user saw, and goes on sign-out.
 */

/** Workbox's cache-name prefix for this console (its `cacheId`); the precache is `lpa-precache-v2-<scope>`. */
export const SERVICE_WORKER_CACHE_ID = 'lpa';

/** The part of `CacheStorage` sign-out needs; tests pass an in-memory stand-in. */
export type CacheStorageArea = Pick<CacheStorage, 'keys' | 'delete'>;

export function isAppShellCache(name: string): boolean {
  return name.startsWith(`${SERVICE_WORKER_CACHE_ID}-precache-`);
}

/**
 * Deletes every cache of this origin but the app-shell precache, so the login page still opens offline after
 * sign-out. Does nothing where Cache Storage is absent (insecure contexts, tests). Returns the names deleted.
 */
export async function clearRuntimeCaches(cacheStorage: CacheStorageArea | undefined): Promise<string[]> {
  if (!cacheStorage) return [];
  const names = (await cacheStorage.keys()).filter((name) => !isAppShellCache(name));
  await Promise.all(names.map((name) => cacheStorage.delete(name)));
  return names;
}
