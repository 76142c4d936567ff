import * as z from 'zod/mini';
import { permissionsFromCache } from '../permissions/cached-permissions';
import { featureLevelLocationsSchema, type UserPermissions } from '../permissions/permissions-object';

/** The local-storage key of the session (spec §3). */
export const SESSION_STORAGE_KEY = 'lpa';

/** Session data saved under `lpa`: the server's session token and the locations per feature (spec §3). */
export const storedSessionSchema = z.object({
  token: z.string().check(z.minLength(1)),
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

/** What the console reads from the server's session token (a JWT) without verifying it: only the server can. */
export interface SessionTokenClaims {
  email: string;
  /** Epoch milliseconds; null when the token carries no expiry. */
  expiresAt: number | null;
}

/**
 * The e-mail and expiry inside a session token, decoded without checking the signature, or null when the token is not
 * a JWT carrying an e-mail. Used only to tell whose stored session this is; the server still checks every call.
 */
export function sessionTokenClaims(token: string): SessionTokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  let payload: unknown;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    payload = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const { email, exp } = payload as { email?: unknown; exp?: unknown };
  if (typeof email !== 'string' || email === '') return null;
  return { email, expiresAt: typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null };
}

/**
 * The permissions of the stored session when it belongs to `email` (the e-mail in its session token, compared
 * without regard to case) and its token has not expired at `now`: what an officer may do while the server cannot be
 * reached, for as long as the server's own session would have lasted. Null otherwise: no session, another user's,
 * an expired one, or a token that is not a JWT with an e-mail and an expiry.
 */
export function restoreStoredSession(
  storage: SessionStorageArea,
  email: string,
  now: number,
): UserPermissions | null {
  const session = readStoredSession(storage);
  if (!session) return null;
  const claims = sessionTokenClaims(session.token);
  if (!claims || claims.email.toLowerCase() !== email.toLowerCase()) return null;
  // The server's tokens always expire; one that does not is none of the server's.
  if (claims.expiresAt === null || claims.expiresAt <= now) return null;
  return permissionsFromCache({ featureLevelLocations: session.featureLevelLocations, email, token: session.token });
}
