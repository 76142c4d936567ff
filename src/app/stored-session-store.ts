import type { StoredSessionStore } from '../machines/auth/auth.actors';
import { resumableStoredSession } from './resumable-session';
import { clearRuntimeCaches, type CacheStorageArea } from './service-worker-caches';
import {
  clearStoredSession,
  restoreStoredSession,
  writeStoredSession,
  type SessionStorageArea,
} from './session-storage';

/**
 * The auth machine's stored session in this browser: lpa in local storage and, on sign-out, the service worker's data
 * caches (the app shell stays: it holds no user data).
 */
export function browserSessionStore({
  storage,
  cacheStorage = globalThis.caches,
}: {
  /** Defaults to `window.localStorage`, read at each use. */
  storage?: SessionStorageArea;
  /** The service worker's Cache Storage; defaults to `caches` (absent outside secure contexts). */
  cacheStorage?: CacheStorageArea;
} = {}): StoredSessionStore {
  const area = () => storage ?? window.localStorage;
  return {
    resumable: (now) => resumableStoredSession(area(), now),
    restore: (email, now) => restoreStoredSession(area(), email, now),
    save: (userData) => writeStoredSession(area(), userData),
    clear: () => {
      clearStoredSession(area());
      void clearRuntimeCaches(cacheStorage).catch((error: unknown) =>
        console.warn('Could not clear the caches', error),
      );
    },
  };
}
