import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ACCOUNT_DISABLED, SESSION_HEADER } from '../../src/contract/envelope';
import { IdTokenRejected, type VerifiedIdentity, type VerifyIdToken } from '../auth/id-token';
import type { SessionTokens } from '../auth/session-token';
import type { Queryable } from '../db/db';
import type { StaffMember } from '../db/staff';
import { staffOfIdentity, type StaffIdentity } from '../db/staff-identity';
import { firstRefusal, type FirstRefusals } from './first-refusals';
import { forbidden, sessionFailure } from './responses';
import type { IdentityEnv, StaffEnv } from './staff-env';

export type { IdentityEnv, StaffEnv };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Checks `Authorization: Bearer <Firebase ID token>`; returns the identity, or the 401 to send. */
async function authenticate(c: Context, verifyIdToken: VerifyIdToken): Promise<VerifiedIdentity | Response> {
  const header = c.req.header('Authorization')?.trim();
  if (!header || /^Bearer$/i.test(header)) {
    return sessionFailure(
      c,
      'NoTokenProvided',
      'Sign-in token missing: send Authorization: Bearer <Firebase ID token>.',
    );
  }
  const idToken = BEARER.exec(header)?.[1];
  if (!idToken) {
    return sessionFailure(c, 'InvalidToken', 'The Authorization header must be "Bearer <Firebase ID token>".');
  }
  try {
    return await verifyIdToken(idToken);
  } catch (error) {
    if (error instanceof IdTokenRejected) {
      return sessionFailure(c, error.expired ? 'TokenExpired' : 'InvalidToken', error.message);
    }
    throw error;
  }
}

/** For the permissions lookup, the one call made before a session exists: the Firebase sign-in alone. */
export function requireIdentity(verifyIdToken: VerifyIdToken) {
  return createMiddleware<IdentityEnv>(async (c, next) => {
    const identity = await authenticate(c, verifyIdToken);
    if (identity instanceof Response) return identity;
    c.set('identity', identity);
    await next();
  });
}

export const NO_STAFF_ACCOUNT = 'No staff account for this e-mail.';
export const STAFF_ACCOUNT_DISABLED = 'This staff account is disabled.';
export const EMAIL_NOT_VERIFIED = 'Verify your e-mail address first (open the link sent to it), then sign in again.';
export const LINKED_TO_ANOTHER_IDENTITY =
  'This staff account is linked to another sign-in account. Ask an administrator to re-link it.';

/** An active staff member, or the sentence of the 403 that turns the identity away. */
export function admission(result: StaffIdentity): { ok: true; staff: StaffMember } | { ok: false; message: string } {
  switch (result.kind) {
    case 'unverified':
      return { ok: false, message: EMAIL_NOT_VERIFIED };
    case 'not-staff':
      return { ok: false, message: NO_STAFF_ACCOUNT };
    case 'linked-to-another-identity':
      return { ok: false, message: LINKED_TO_ANOTHER_IDENTITY };
    case 'staff':
      if (result.staff.status === 'disabled') return { ok: false, message: STAFF_ACCOUNT_DISABLED };
      return { ok: true, staff: result.staff };
  }
}

/**
 * For every other protected call: the Firebase sign-in (revocation checked), the API's session token (JwtToken
 * header) issued to that same identity (uid), and an active staff row bound to it. Permissions are read from the
 * database on each call, so revoking a grant or disabling the row takes effect at once rather than when the session
 * ends. Then the route's `first` refusals (server/http/first-refusals.ts), still before the request is read.
 */
export function requireStaffSession(
  deps: { verifyIdToken: VerifyIdToken; sessions: SessionTokens; db: Queryable },
  first: FirstRefusals = {},
) {
  return createMiddleware<StaffEnv>(async (c, next) => {
    const identity = await authenticate(c, deps.verifyIdToken);
    if (identity instanceof Response) return identity;
    const sessionToken = c.req.header(SESSION_HEADER)?.trim();
    if (!sessionToken) {
      return sessionFailure(c, 'NoTokenProvided', `Session token missing: send the ${SESSION_HEADER} header.`);
    }
    const session = await deps.sessions.verify(sessionToken);
    if (!session.ok) return sessionFailure(c, session.code, session.message);
    // The uid, not the e-mail: an account re-created with the same e-mail must not inherit a session.
    if (session.claims.uid !== identity.uid) {
      return sessionFailure(c, 'InvalidToken', 'The session token belongs to another account. Please sign in again.');
    }
    const admitted = admission(await staffOfIdentity(deps.db, identity));
    if (!admitted.ok && admitted.message === STAFF_ACCOUNT_DISABLED) {
      // A code the console recognises: it signs the user out with the message instead of showing a refusal.
      return c.json({ success: false as const, error: ACCOUNT_DISABLED, message: admitted.message }, 403);
    }
    if (!admitted.ok) return forbidden(c, admitted.message);
    c.set('identity', identity);
    c.set('staff', admitted.staff);
    c.set('sessionToken', sessionToken);
    const refused = firstRefusal(c, first);
    if (refused) return refused;
    await next();
  });
}
