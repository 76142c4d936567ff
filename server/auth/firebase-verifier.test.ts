import type { DecodedIdToken } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdTokenRejected } from './id-token';
import { createFirebaseVerifier, verifierOver } from './firebase-verifier';

/** An emulator-style (unsigned) ID token, as the Auth emulator issues them. */
function emulatorToken(claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

describe('firebase-admin ID token verifier', () => {
  const previous = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  // Port 1 answers nothing: these checks must happen offline.
  beforeAll(() => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previous;
  });

  it('rejects a garbage token as invalid', async () => {
    const verify = createFirebaseVerifier('demo-lpa-unit');
    const error = await verify('garbage').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IdTokenRejected);
    expect((error as IdTokenRejected).expired).toBe(false);
  });

  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'https://securetoken.google.com/demo-lpa-unit',
    aud: 'demo-lpa-unit',
    sub: 'uid-1',
    user_id: 'uid-1',
    auth_time: now - 60,
    iat: now - 60,
    exp: now + 3600,
    email: 'Officer@Example.com',
  };

  it('reports an expired token as expired', async () => {
    const verify = createFirebaseVerifier('demo-lpa-unit');
    const error = await verify(emulatorToken({ ...claims, iat: now - 7200, exp: now - 3600 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'IdTokenRejected', expired: true });
  });

  it('rejects a token for another project', async () => {
    const verify = createFirebaseVerifier('demo-lpa-unit');
    await expect(verify(emulatorToken({ ...claims, aud: 'someone-else' }))).rejects.toBeInstanceOf(IdTokenRejected);
  });

  // With the emulator, firebase-admin also asks it whether the account still exists; an unreachable emulator is a
  // fault of the server's setup (500), not a bad token (401).
  it('lets an unreachable emulator surface as a server fault', async () => {
    const verify = createFirebaseVerifier('demo-lpa-unit');
    const error = await verify(emulatorToken(claims)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(IdTokenRejected);
  });
});

describe('the verifier over firebase-admin', () => {
  const decoded = { uid: 'uid-1', email: 'Officer@Example.com', email_verified: true } as DecodedIdToken;
  const failingWith = (code: string) =>
    verifierOver({ verifyIdToken: async () => Promise.reject(Object.assign(new Error(code), { code })) });

  it('always asks for the revocation check, and passes on uid and verification', async () => {
    const verifyIdToken = vi.fn(async () => decoded);
    expect(await verifierOver({ verifyIdToken })('token')).toEqual({
      email: 'officer@example.com',
      uid: 'uid-1',
      emailVerified: true,
    });
    expect(verifyIdToken).toHaveBeenCalledWith('token', true);
    const unverified = verifierOver({ verifyIdToken: async () => ({ ...decoded, email_verified: undefined }) });
    expect((await unverified('token')).emailVerified).toBe(false);
  });

  it.each(['auth/id-token-revoked', 'auth/user-disabled', 'auth/user-not-found', 'auth/argument-error'])(
    'turns %s into a refused token',
    async (code) => {
      await expect(failingWith(code)('token')).rejects.toBeInstanceOf(IdTokenRejected);
    },
  );

  it.each(['auth/insufficient-permission', 'app/invalid-credential', 'auth/internal-error'])(
    'lets %s surface as a fault of the server, not of the token',
    async (code) => {
      const error = await failingWith(code)('token').catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(IdTokenRejected);
    },
  );

  it('refuses to be created for the emulator in production', () => {
    const saved = { env: process.env.NODE_ENV, host: process.env.FIREBASE_AUTH_EMULATOR_HOST };
    process.env.NODE_ENV = 'production';
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9099';
    try {
      expect(() => createFirebaseVerifier('lpa-production')).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
    } finally {
      process.env.NODE_ENV = saved.env;
      if (saved.host === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      else process.env.FIREBASE_AUTH_EMULATOR_HOST = saved.host;
    }
  });
});
