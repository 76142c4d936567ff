import { SESSION_HEADER } from '../../src/contract/envelope';
import type { UserPermissions } from '../../src/permissions/permissions-object';
import { createApp, type AppDeps } from '../app';
import { IdTokenRejected, type VerifyIdToken } from '../auth/id-token';
import { createSessionTokens, type SessionSubject } from '../auth/session-token';
import type { Db } from '../db/db';

/** The uid the fake gives an e-mail's account unless a test names another (one account per e-mail, as in Firebase). */
export const fakeUid = (email: string) => `uid-${email.toLowerCase()}`;

/**
 * Fake Firebase: `idTokenFor(email)` is a valid ID token of that e-mail's account (verified, uid `fakeUid(email)`);
 * `idTokenFor(email, { uid, verified: false })` one of another account or with the e-mail unconfirmed;
 * "expired:<email>" an expired one; anything else garbage. The real verifier has its own tests.
 */
export const idTokenFor = (email: string, account: { uid?: string; verified?: boolean } = {}) =>
  [
    `id:${email}`,
    ...(account.uid ? [`uid=${account.uid}`] : []),
    ...(account.verified === false ? ['unverified'] : []),
  ].join('|');
export const fakeVerifyIdToken: VerifyIdToken = async (idToken) => {
  if (idToken.startsWith('id:')) {
    const [email = '', ...flags] = idToken.slice(3).split('|');
    const uid = flags.find((flag) => flag.startsWith('uid='))?.slice(4) ?? fakeUid(email);
    return { email: email.toLowerCase(), uid, emailVerified: !flags.includes('unverified') };
  }
  if (idToken.startsWith('expired:')) throw new IdTokenRejected('The sign-in token has expired.', true);
  throw new IdTokenRejected('The sign-in token is not valid.');
};

export const TEST_SESSION_SECRET = new TextEncoder().encode('test-session-secret-0123456789-abcdefghij');
export const TEST_SESSION_TTL_SECONDS = 3600;
export const TEST_ORIGIN = 'http://localhost:5173';

export interface CallOptions {
  /** Firebase ID token for the Authorization header. */
  idToken?: string;
  /** Session token for the JwtToken header. */
  session?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (malformed bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Hono env, e.g. a fake socket for the loopback check. */
  env?: object;
}

/** `T` is what the test expects in `data`; the envelope itself is checked by the assertions. */
export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: { success: boolean; data?: T; message?: string; error?: string };
}

/** The app over a test database, with a movable clock and every server fault recorded instead of printed. */
export function createTestApi(db: Db, overrides: Partial<AppDeps> = {}) {
  const clock = { now: new Date('2026-03-02T15:00:00Z') };
  const serverErrors: unknown[] = [];
  const app = createApp({
    db,
    verifyIdToken: fakeVerifyIdToken,
    session: { secret: TEST_SESSION_SECRET, ttlSeconds: TEST_SESSION_TTL_SECONDS },
    corsOrigins: [TEST_ORIGIN],
    now: () => clock.now,
    logError: (_message, error) => serverErrors.push(error),
    ...overrides,
  });

  async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers = new Headers(options.headers);
    if (options.idToken !== undefined) headers.set('Authorization', `Bearer ${options.idToken}`);
    if (options.session !== undefined) headers.set(SESSION_HEADER, options.session);
    let body: string | undefined = options.rawBody;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers.set('Content-Type', 'application/json');
    }
    const response = await app.request(path, { method, headers, body }, options.env);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** The permissions lookup as the console makes it after a Firebase sign-in. */
  async function signIn(email: string): Promise<UserPermissions> {
    const result = await call<{ userData: UserPermissions }>('POST', '/auth/permissions', {
      idToken: idTokenFor(email),
      json: { email },
    });
    if (result.status !== 200 || !result.body.data) {
      throw new Error(`sign-in of ${email} failed: ${result.status} ${result.body.message}`);
    }
    return result.body.data.userData;
  }

  /** A protected GET as a signed-in user. */
  async function getAs<T = unknown>(email: string, path: string): Promise<CallResult<T>> {
    const { token } = await signIn(email);
    return call<T>('GET', path, { idToken: idTokenFor(email), session: token });
  }

  /** A protected POST with a JSON body as a signed-in user. */
  async function postAs<T = unknown>(email: string, path: string, json: unknown): Promise<CallResult<T>> {
    const { token } = await signIn(email);
    return call<T>('POST', path, { idToken: idTokenFor(email), session: token, json });
  }

  /**
   * Session tokens signed with the app's own settings and clock, or with a foreign key. An e-mail alone stands for
   * the fake account of that e-mail (`fakeUid`).
   */
  const sessions = (secret = TEST_SESSION_SECRET) => {
    const tokens = createSessionTokens({ secret, ttlSeconds: TEST_SESSION_TTL_SECONDS, now: () => clock.now });
    const issue = (subject: string | SessionSubject) =>
      tokens.issue(typeof subject === 'string' ? { email: subject, uid: fakeUid(subject) } : subject);
    return { ...tokens, issue };
  };

  return { app, clock, serverErrors, call, signIn, getAs, postAs, sessions };
}
