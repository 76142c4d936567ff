import { z } from 'zod';
import { featureLevelLocationsSchema, type UserPermissions } from '../permissions/permissions-object';

/** The local-storage key of the session (spec §3). */
export const SESSION_STORAGE_KEY = 'lpa';

/** Session data saved under `lpa`: the server's session token and the locations per feature (spec §3). */
export const storedSessionSchema = z.object({
  token: z.string().min(1),
  featureLevelLocations: featureLevelLocationsSchema,
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** The part of `Storage` the session needs; tests in Node pass an in-memory stand-in. */
export type SessionStorageArea = Pick<Storage, 'getItem' | 'setItem' | 'clear'>;

/** The stored session, or null when it is absent or not what this version of the console wrote. */
export function readStoredSession(storage: SessionStorageArea = window.localStorage): StoredSession | null {
  const raw = storage.getItem(SESSION_STORAGE_KEY);
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = storedSessionSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Saves the session part of userData under `lpa`. Pass `undefined` as `storage` for `window.localStorage`. */
export function writeStoredSession(
  storage: SessionStorageArea = window.localStorage,
  userData: UserPermissions,
): void {
  const session: StoredSession = { token: userData.token, featureLevelLocations: userData.featureLevelLocations };
  storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

/** Clears all of local storage, the `lpa` key with it: signing out leaves nothing of the user behind (spec §4). */
export function clearStoredSession(storage: SessionStorageArea = window.localStorage): void {
  storage.clear();
}
