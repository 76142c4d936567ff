import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserPermissions } from '../../../src/permissions/permissions-object';
import { identitySeeder } from '../../auth/firebase-identities';
import { verifierOver } from '../../auth/firebase-verifier';
import { FakeIdentityProvider } from '../../testing/fake-identity-provider';
import { createTestApi } from '../../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../../testing/test-database';
import { migrate } from '../migrate';
import { findStaffByEmail } from '../staff';
import { demoAccount, DEMO_ACCOUNTS } from './demo-accounts';
import { applyDevSeed } from './dev-seed';

const EXTRA = { email: 'night-officer@example.com', password: 'night-shift', permissions: { e: { v: [1, 2, 3] } } };

/**
 * `npm start`, `npm run seed:users` and POST /dev/reseed all re-apply the dev seed. Setting a password revokes the
 * account's tokens and `disabled: false` re-enables it, so a re-seed that rewrote every account signed everyone out
 * and undid what was disabled by hand.
 */
describe.each(BACKENDS)('re-seeding on %s', (backend) => {
  let database: TestDatabase;
  let provider: FakeIdentityProvider;
  let api: ReturnType<typeof createTestApi>;
  let seedUsersDir: string;
  const reseed = () =>
    applyDevSeed(database.db, { seedUsersDir, createIdentity: identitySeeder(provider, provider.checkPassword) });

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await migrate(database.db);
    seedUsersDir = await mkdtemp(path.join(tmpdir(), 'lpa-reseed-'));
    await writeFile(path.join(seedUsersDir, 'night.json'), JSON.stringify([EXTRA]));
    provider = new FakeIdentityProvider();
    api = createTestApi(database.db, { verifyIdToken: verifierOver(provider) });
    const first = await reseed();
    expect(first.identities).toEqual({ status: 'done', accounts: DEMO_ACCOUNTS.length + 1 });
  });
  afterAll(async () => {
    expect(api?.serverErrors ?? []).toEqual([]);
    await database?.dispose();
    if (seedUsersDir) await rm(seedUsersDir, { recursive: true, force: true });
  });

  async function session(email: string, password: string) {
    const idToken = provider.signIn(email, password);
    const lookup = await api.call<{ userData: UserPermissions }>('POST', '/auth/permissions', {
      idToken,
      json: { email },
    });
    expect(lookup.status, email).toBe(200);
    return { idToken, session: lookup.body.data!.userData.token };
  }

  async function rowsOf(table: 'users' | 'roles' | 'role_permissions') {
    const order = { users: 'user_id', roles: 'role_id', role_permissions: 'role_id, feature, level, location_id' }[
      table
    ];
    return (await database.db.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  }

  it('creates verified accounts and binds the staff rows to them', async () => {
    const officer = demoAccount('officer');
    const account = provider.state(officer.email);
    expect(account).toMatchObject({ emailVerified: true, disabled: false, displayName: officer.displayName });
    expect((await findStaffByEmail(database.db, officer.email))?.identityUid).toBe(account?.uid);
  });

  it('signs nobody out, writes nothing, and keeps a disabled account disabled', async () => {
    const officer = demoAccount('officer');
    const signedIn = [await session(officer.email, officer.password), await session(EXTRA.email, EXTRA.password)];
    const finance = demoAccount('finance');
    provider.disable(provider.state(finance.email)!.uid);
    const before = {
      users: await rowsOf('users'),
      roles: await rowsOf('roles'),
      grants: await rowsOf('role_permissions'),
    };
    const writesBefore = provider.writes.length;

    const report = await reseed();

    expect(report.identities).toEqual({ status: 'done', accounts: DEMO_ACCOUNTS.length + 1 });
    expect(provider.writes.slice(writesBefore)).toEqual([]);
    for (const headers of signedIn) expect((await api.call('GET', '/load-permissions/', headers)).status).toBe(200);
    expect(provider.state(finance.email)?.disabled).toBe(true);
    expect(() => provider.signIn(finance.email, finance.password)).toThrow(/disabled/);
    // Nothing in the database moved either: same rows, same updated_at, same grants.
    expect({
      users: await rowsOf('users'),
      roles: await rowsOf('roles'),
      grants: await rowsOf('role_permissions'),
    }).toEqual(before);
  });

  it('changes only what differs: a new password signs out that account alone, a new grant is added', async () => {
    const promo = demoAccount('promo');
    const promoSession = await session(promo.email, promo.password);
    const admin = demoAccount('admin');
    const adminSession = await session(admin.email, admin.password);
    await provider.updateUser(provider.state(promo.email)!.uid, { password: 'changed-by-hand' });
    await writeFile(
      path.join(seedUsersDir, 'night.json'),
      JSON.stringify([{ ...EXTRA, permissions: { e: { v: [1, 2, 3] }, rd: { v: [4] } } }]),
    );
    const writesBefore = provider.writes.length;

    await reseed();

    expect(provider.writes.slice(writesBefore)).toEqual([`update ${promo.email}: password`]);
    expect((await api.call('GET', '/load-permissions/', promoSession)).status).toBe(401);
    expect((await api.call('GET', '/load-permissions/', adminSession)).status).toBe(200);
    expect((await findStaffByEmail(database.db, EXTRA.email))?.record.rd?.v).toEqual([4]);
    expect((await findStaffByEmail(database.db, EXTRA.email))?.record.e?.v).toEqual([1, 2, 3]);
  });

  it('re-links rows to accounts the emulator re-created (it forgets them when it stops), audited', async () => {
    const officer = demoAccount('officer');
    const oldUid = provider.state(officer.email)!.uid;
    provider.deleteUser(oldUid);

    await reseed();

    const newUid = provider.state(officer.email)!.uid;
    expect(newUid).not.toBe(oldUid);
    expect((await findStaffByEmail(database.db, officer.email))?.identityUid).toBe(newUid);
    await session(officer.email, officer.password);
    const { rows } = await database.db.query<{ actor_email: string | null; before: unknown; after: unknown }>(
      `SELECT actor_email, before, after FROM audit_log
        WHERE entity = 'user' AND action = 'relink-identity' AND after->>'identity_uid' = $1`,
      [newUid],
    );
    expect(rows).toEqual([{ actor_email: null, before: { identity_uid: oldUid }, after: { identity_uid: newUid } }]);
  });
});
