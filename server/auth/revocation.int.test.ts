import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserPermissions } from '../../src/permissions/permissions-object';
import { migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { demoAccount, demoSeedUser } from '../db/seed/demo-accounts';
import { seedDemoLocations } from '../db/seed/demo-seed';
import { FakeIdentityProvider } from '../testing/fake-identity-provider';
import { createTestApi } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';
import { identitySeeder } from './firebase-identities';
import { verifierOver, type IdTokenAuth } from './firebase-verifier';

const PERSONAS = ['officer', 'finance', 'promo', 'admin'] as const;

/**
 * Production behaviour: firebase-admin notices a revoked, disabled or deleted account only when asked to
 * (verifyIdToken(token, checkRevoked)); the Auth emulator always checks, so tests against it cannot tell. The fake
 * provider follows production's rule.
 */
describe.each(BACKENDS)('revocation on %s', (backend) => {
  let database: TestDatabase;
  let provider: FakeIdentityProvider;
  let api: ReturnType<typeof createTestApi>;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await migrate(database.db);
    await seedDemoLocations(database.db);
    provider = new FakeIdentityProvider();
    await applyUserSeed(
      database.db,
      PERSONAS.map((persona) => demoSeedUser(demoAccount(persona))),
      { createIdentity: identitySeeder(provider, provider.checkPassword) },
    );
    api = createTestApi(database.db, { verifyIdToken: verifierOver(provider) });
  });
  afterAll(async () => {
    expect(api?.serverErrors ?? []).toEqual([]);
    await database?.dispose();
  });

  /** Signs in at the provider and starts a session: the two headers of every protected call. */
  async function signedIn(persona: (typeof PERSONAS)[number]) {
    const { email, password } = demoAccount(persona);
    const idToken = provider.signIn(email, password);
    const lookup = await api.call<{ userData: UserPermissions }>('POST', '/auth/permissions', {
      idToken,
      json: { email },
    });
    expect(lookup.status).toBe(200);
    const uid = provider.state(email)!.uid;
    return { uid, email, headers: { idToken, session: lookup.body.data!.userData.token } };
  }

  const loadPermissions = (headers: { idToken: string; session: string }) =>
    api.call('GET', '/load-permissions/', headers);

  it.each([
    ['revoked', 'officer', (uid: string) => provider.revokeRefreshTokens(uid), /revoked/],
    ['disabled', 'finance', (uid: string) => provider.disable(uid), /disabled/],
  ] as const)(
    'cuts a %s identity off on its next call, the permissions lookup included',
    async (_kind, persona, act, message) => {
      const { uid, email, headers } = await signedIn(persona);
      expect((await loadPermissions(headers)).status).toBe(200);

      act(uid);
      const call = await loadPermissions(headers);
      expect(call.status).toBe(401);
      expect(call.body).toEqual({ success: false, error: 'InvalidToken', message: expect.stringMatching(message) });
      const lookup = await api.call('POST', '/auth/permissions', { idToken: headers.idToken, json: { email } });
      expect(lookup.status).toBe(401);
    },
  );

  it('cuts a deleted identity off on its next call', async () => {
    const { uid, headers } = await signedIn('promo');
    provider.deleteUser(uid);
    const call = await loadPermissions(headers);
    expect(call.status).toBe(401);
    expect(call.body.message).toMatch(/no longer exists/);
  });

  it('cuts a disabled staff row off on its next call', async () => {
    const { email, headers } = await signedIn('admin');
    await database.db.query("UPDATE users SET status = 'disabled' WHERE email = $1", [email]);
    try {
      const call = await loadPermissions(headers);
      expect(call.status).toBe(403);
      expect(call.body.message).toMatch(/disabled/);
    } finally {
      await database.db.query("UPDATE users SET status = 'active' WHERE email = $1", [email]);
    }
  });

  it('asks for the revocation check on every verification', async () => {
    const { headers } = await signedIn('admin');
    const verify = vi.spyOn(provider, 'verifyIdToken');
    try {
      await loadPermissions(headers);
      await api.call('POST', '/auth/permissions', {
        idToken: headers.idToken,
        json: { email: demoAccount('admin').email },
      });
      expect(verify.mock.calls.map(([, checkRevoked]) => checkRevoked)).toEqual([true, true]);
    } finally {
      verify.mockRestore();
    }
  });

  // Without credentials for the account lookup (or with Google unreachable) nobody's token is at fault: a logged
  // 500, not a 401 that would sign every user out and hide the cause.
  it('answers a failing account lookup with a server fault, not a sign-out', async () => {
    const broken: IdTokenAuth = {
      verifyIdToken: async () => {
        throw Object.assign(new Error('Could not load the default credentials.'), { code: 'app/invalid-credential' });
      },
    };
    const faulty = createTestApi(database.db, { verifyIdToken: verifierOver(broken) });
    const result = await faulty.call('GET', '/load-permissions/', { idToken: 'any', session: 'any' });
    expect(result.status).toBe(500);
    expect(faulty.serverErrors).toHaveLength(1);
  });
});
