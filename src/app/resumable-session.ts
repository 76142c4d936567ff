import type { UserPermissions } from '../permissions/permissions-object';
import { readStoredSession, restoreStoredSession, sessionTokenClaims, type SessionStorageArea } from './session-storage';

/**
 * The stored session (lpa) the page may start from, whoever's it is: its permissions when it parses and its session
 * token names an e-mail and has not expired at `now`, else null. The user it names is signed in at once,
 * provisionally, while Firebase confirms (or refuses) the session in the background
 * (docs/decisions/0006-firebase-off-the-critical-path.md).
 */
export function resumableStoredSession(storage: SessionStorageArea, now: number): UserPermissions | null {
  const session = readStoredSession(storage);
  const claims = session ? sessionTokenClaims(session.token) : null;
  // The same checks as restoring a known user's session offline, for the user the token names.
  return claims ? restoreStoredSession(storage, claims.email, now) : null;
}
