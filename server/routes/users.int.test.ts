import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DISABLED } from '../../src/contract/envelope';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { StaffUser } from '../../src/contract/users';
import type { StaffAccounts } from '../auth/staff-accounts';
import { migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { demoAccount, type DemoPersona } from '../db/seed/demo-accounts';
import { applyDemoSeed } from '../db/seed/demo-seed';
import { createTestApi, fakeUid, idTokenFor } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';

/** May view, invite and edit users; holds promo codes (edit) at Pike Place Market Garage (3) only. */
const U_EDITOR = 'user.editor@example.com';
/** May view users only. */
const U_VIEWER = 'user.viewer@example.com';
const ALL = [1, 2, 3, 4, 5, 6];
/** The job-named role a demo account holds ("Promotions – Seattle"). */
const demoRole = (persona: DemoPersona) => demoAccount(persona).role;

/** A model of the identity provider: records what it was asked, answers with the fake accounts' uids. */
function fakeStaffAccounts() {
  const invited: string[] = [];
  const removed: string[] = [];
  const accounts: StaffAccounts = {
    async invite({ email }) {
      invited.push(email);
      return { uid: fakeUid(email), setPasswordLink: `http://auth.test/reset?email=${encodeURIComponent(email)}` };
    },
    async remove(uid) {
      removed.push(uid);
    },
  };
  return { accounts, invited, removed };
}

describe.each(BACKENDS)('users on %s', (backend) => {
  const provider = fakeStaffAccounts();
  const context = {} as { database: TestDatabase; api: ReturnType<typeof createTestApi> };
  beforeAll(async () => {
    context.database = await openTestDatabase(backend);
    await migrate(context.database.db);
    await applyDemoSeed(context.database.db);
    context.api = createTestApi(context.database.db, { staffAccounts: provider.accounts });
    await applyUserSeed(context.database.db, [
      { email: U_EDITOR, password: 'secret1', displayName: 'Uma Editor', permissions: { u: { v: ALL, a: ALL, e: ALL }, pc: { e: [3] } } },
      { email: U_VIEWER, password: 'secret1', permissions: { u: { v: [1] } } },
    ]);
  });
  afterAll(async () => {
    expect(context.api?.serverErrors ?? []).toEqual([]);
    await context.database?.dispose();
  });
  const api = () => context.api;
  const db = () => context.database.db;
  const count = async (sql: string) => Number((await db().query<{ n: number }>(sql)).rows[0]?.n);
  // A first sign-in claiming its row is audited too (server/db/staff-identity.ts): not a change these tests make.
  const userAudits = () =>
    count("SELECT count(*)::int AS n FROM audit_log WHERE entity = 'user' AND action <> 'claim-identity'");
  const userCount = () => count('SELECT count(*)::int AS n FROM users');
  const roleIdOf = async (name: string) =>
    (await db().query<{ role_id: number }>('SELECT role_id FROM roles WHERE name = $1', [name])).rows[0]!.role_id;
  const userIdOf = async (email: string) =>
    (await db().query<{ user_id: number }>('SELECT user_id FROM users WHERE email = $1', [email])).rows[0]!.user_id;
  const user = async (id: number) => (await api().getAs<StaffUser>('superuser@example.com', `/users/${id}`)).body.data!;

  describe('GET /users and the CSV', () => {
    it('lists staff with role, locations, status and last sign-in; searches, filters, sorts and pages', async () => {
      await api().signIn('promo@example.com');
      const found = await api().getAs<Paged<StaffUser>>(U_VIEWER, '/users?q=PRIYA');
      expect(found.status).toBe(200);
      expect(found.body.data?.rows).toEqual([
        expect.objectContaining({
          email: 'promo@example.com',
          display_name: 'Priya Promo',
          role_name: demoRole('promo'),
          role_superuser: false,
          location_ids: [3],
          location_names: ['Pike Place Market Garage'],
          status: 'active',
          last_sign_in_at: '2026-03-02T15:00:00.000Z',
          linked: true,
        }),
      ]);
      const paged = await api().getAs<Paged<StaffUser>>(U_VIEWER, '/users?sort=display_name&dir=desc&pageSize=10&page=1');
      const names = paged.body.data!.rows.map((row) => (row.display_name ?? '').toLowerCase());
      expect(names).toEqual([...names].sort().reverse());
      const superusers = await api().getAs<Paged<StaffUser>>(
        U_VIEWER,
        `/users?roleId=${await roleIdOf(demoRole('superuser'))}`,
      );
      expect(superusers.body.data?.rows.map((row) => [row.email, row.role_superuser])).toEqual([['superuser@example.com', true]]);
      expect((await api().getAs(U_VIEWER, '/users?status=gone')).status).toBe(400);
    });

    it('exports every matching staff member as CSV', async () => {
      // The test client parses JSON; the CSV is read raw.
      const { token } = await api().signIn(U_VIEWER);
      const raw = await api().app.request('/users/export?q=example.com&sort=email', {
        headers: { Authorization: `Bearer ${idTokenFor(U_VIEWER)}`, JwtToken: token },
      });
      expect(raw.status).toBe(200);
      const rows = parse((await raw.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
      expect(rows.length).toBe(await count('SELECT count(*)::int AS n FROM users'));
      expect(rows.find((row) => row['E-mail'] === 'superuser@example.com')).toMatchObject({ Locations: 'All locations', Status: 'active' });
      expect(rows.find((row) => row['E-mail'] === 'promo@example.com')).toMatchObject({ Locations: 'Pike Place Market Garage', Name: 'Priya Promo' });
    }, 15_000);

    it.each(['officer@example.com', 'noaccess@example.com'])('refuses %s (no users view)', async (email) => {
      expect((await api().getAs(email, '/users')).status).toBe(403);
      expect((await api().getAs(email, '/users/export')).status).toBe(403);
    });
  });

  describe('POST /users (invite)', () => {
    it('creates the account, binds the row to it, returns the set-password link, audits; the person signs in', async () => {
      const promoRole = await roleIdOf(demoRole('promo'));
      const result = await api().postAs<{ user: StaffUser; setPasswordLink: string }>(U_EDITOR, '/users', {
        email: ' New.Person@Example.com ',
        display_name: ' New Person ',
        role_id: promoRole,
      });
      expect(result.status).toBe(200);
      expect(result.body.data?.setPasswordLink).toBe('http://auth.test/reset?email=new.person%40example.com');
      expect(result.body.data?.user).toMatchObject({
        email: 'new.person@example.com',
        display_name: 'New Person',
        role_id: promoRole,
        status: 'active',
        linked: true,
        last_sign_in_at: null,
      });
      const history = await api().getAs<AuditEntry[]>(U_VIEWER, `/users/${result.body.data!.user.user_id}/history`);
      expect(history.body.data?.[0]).toMatchObject({ action: 'invite', actor: { email: U_EDITOR } });
      const signedIn = await api().signIn('new.person@example.com');
      expect(signedIn.hasPromoCodePermission).toBe(true);
    });

    it('refuses a role granting more than the inviter holds, before any account is created', async () => {
      const before = [await userCount(), await userAudits(), provider.invited.length];
      const result = await api().postAs(U_EDITOR, '/users', {
        email: 'too.much@example.com',
        display_name: 'Too Much',
        role_id: await roleIdOf(demoRole('finance')),
      });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/Not yours: Refund portal: view at Union Station Garage/);
      expect([await userCount(), await userAudits(), provider.invited.length]).toEqual(before);
    });

    it('refuses a user viewer (no add)', async () => {
      const result = await api().postAs(U_VIEWER, '/users', { email: 'x@example.com', display_name: 'X', role_id: 1 });
      expect(result.status).toBe(403);
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['an e-mail that is not one', { email: 'not-an-email', display_name: 'A', role_id: 1 }, 'email'],
      ['an e-mail of a staff member already (other case)', { email: 'PROMO@example.com', display_name: 'A', role_id: 1 }, 'email'],
      ['a blank name', { email: 'a@example.com', display_name: ' ', role_id: 1 }, 'display_name'],
      ['a role that does not exist', { email: 'a@example.com', display_name: 'A', role_id: 99999 }, 'role_id'],
      ['a role id that is not a number', { email: 'a@example.com', display_name: 'A', role_id: 'admin' }, 'role_id'],
      ['an unknown field', { email: 'a@example.com', display_name: 'A', role_id: 1, admin: true }, 'admin'],
    ];
    it.each(bad)('answers 400 naming the field for %s, writing nothing', async (_label, body, field) => {
      const before = [await userCount(), await userAudits(), provider.invited.length];
      const result = await api().postAs<{ fieldErrors: Record<string, string> }>('superuser@example.com', '/users', body);
      expect(result.status).toBe(400);
      expect(Object.keys(result.body.data?.fieldErrors ?? {})).toContain(field);
      expect([await userCount(), await userAudits(), provider.invited.length]).toEqual(before);
    });
  });

  describe('POST /users/{userId} (name and role)', () => {
    it('saves from the version and refuses a stale one with who changed it', async () => {
      const id = await userIdOf('officer@example.com');
      const current = await user(id);
      const saved = await api().postAs<StaffUser>('admin@example.com', `/users/${id}`, {
        display_name: 'Olivia O.',
        role_id: current.role_id,
        version: current.version,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ display_name: 'Olivia O.', version: current.version + 1 });
      const stale = await api().postAs('superuser@example.com', `/users/${id}`, {
        display_name: 'Other',
        role_id: current.role_id,
        version: current.version,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.data).toMatchObject({ changedBy: { email: 'admin@example.com' } });
    });

    it('gives a role within what the editor holds, refuses one beyond it, and refuses one\'s own role', async () => {
      const id = await userIdOf('noaccess@example.com');
      const promoRole = await roleIdOf(demoRole('promo'));
      const given = await api().postAs<StaffUser>(U_EDITOR, `/users/${id}`, {
        display_name: 'Nora Noaccess',
        role_id: promoRole,
        version: (await user(id)).version,
      });
      expect(given.status).toBe(200);
      const beyond = await api().postAs(U_EDITOR, `/users/${id}`, {
        display_name: 'Nora Noaccess',
        role_id: await roleIdOf(demoRole('officer')),
        version: (await user(id)).version,
      });
      expect(beyond.status).toBe(403);
      const adminId = await userIdOf('admin@example.com');
      const own = await api().postAs('admin@example.com', `/users/${adminId}`, {
        display_name: 'Alex Admin',
        role_id: promoRole,
        version: (await user(adminId)).version,
      });
      expect(own.status).toBe(403);
      expect(own.body.message).toMatch(/your own role/);
      expect((await user(adminId)).role_id).toBe(await roleIdOf(demoRole('admin')));
    });

    it('lets only a superuser give a superuser role', async () => {
      const id = await userIdOf('finance@example.com');
      const suRole = await roleIdOf(demoRole('superuser'));
      const result = await api().postAs('admin@example.com', `/users/${id}`, {
        display_name: 'Frank Finance',
        role_id: suRole,
        version: (await user(id)).version,
      });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/Only a superuser/);
    });
  });

  describe('POST /users/{userId}/status', () => {
    it("refuses a disabled user's next call with a code the console recognises, and lets them back when enabled", async () => {
      const email = U_VIEWER;
      const { token } = await api().signIn(email);
      const call = () => api().call('GET', '/users', { idToken: idTokenFor(email), session: token });
      expect((await call()).status).toBe(200);
      const id = await userIdOf(email);
      const disabled = await api().postAs<StaffUser>('admin@example.com', `/users/${id}/status`, {
        status: 'disabled',
        version: (await user(id)).version,
      });
      expect(disabled.status).toBe(200);
      expect(disabled.body.data?.status).toBe('disabled');
      const refused = await call();
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: ACCOUNT_DISABLED, message: 'This staff account is disabled.' });
      const enabled = await api().postAs('admin@example.com', `/users/${id}/status`, {
        status: 'active',
        version: disabled.body.data!.version,
      });
      expect(enabled.status).toBe(200);
      expect((await call()).status).toBe(200);
      const actions = (await api().getAs<AuditEntry[]>(U_VIEWER, `/users/${id}/history`)).body.data!.map((e) => e.action);
      expect(actions.slice(0, 2)).toEqual(['enable', 'disable']);
    });

    it('refuses disabling oneself, a superuser (unless by one), or someone holding more than the editor', async () => {
      const adminId = await userIdOf('admin@example.com');
      const self = await api().postAs('admin@example.com', `/users/${adminId}/status`, {
        status: 'disabled',
        version: (await user(adminId)).version,
      });
      expect(self.status).toBe(403);
      const suId = await userIdOf('superuser@example.com');
      const su = await api().postAs('admin@example.com', `/users/${suId}/status`, {
        status: 'disabled',
        version: (await user(suId)).version,
      });
      expect(su.status).toBe(403);
      const stronger = await api().postAs(U_EDITOR, `/users/${adminId}/status`, {
        status: 'disabled',
        version: (await user(adminId)).version,
      });
      expect(stronger.status).toBe(403);
      expect((await user(adminId)).status).toBe('active');
      const viewer = await api().postAs(U_VIEWER, `/users/${suId}/status`, { status: 'disabled', version: 1 });
      expect(viewer.status).toBe(403);
      const badStatus = await api().postAs<{ fieldErrors: object }>('admin@example.com', `/users/${suId}/status`, {
        status: 'gone',
        version: 1,
      });
      expect(badStatus.status).toBe(400);
      expect(Object.keys(badStatus.body.data?.fieldErrors ?? {})).toEqual(['status']);
    });
  });

  describe('every endpoint refuses staff without the users feature, writing nothing', () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/users'],
      ['GET', '/users/export'],
      ['GET', '/users/assignable-roles'],
      ['GET', '/users/1'],
      ['GET', '/users/1/history'],
      ['POST', '/users', { email: 'x@example.com', display_name: 'X', role_id: 1 }],
      ['POST', '/users/1', { display_name: 'X', role_id: 1, version: 1 }],
      ['POST', '/users/1/status', { status: 'disabled', version: 1 }],
      ['POST', '/users/1/delete', { version: 1 }],
    ];
    it.each(['officer@example.com', 'finance@example.com', 'noaccess@example.com'])('%s', async (email) => {
      const before = [await userCount(), await userAudits()];
      for (const [method, path, json] of calls) {
        const result = method === 'GET' ? await api().getAs(email, path) : await api().postAs(email, path, json);
        expect(result.status, `${method} ${path}`).toBe(403);
      }
      expect((await api().call('GET', '/users')).status).toBe(401);
      expect([await userCount(), await userAudits()]).toEqual(before);
    });
  });

  describe('POST /users/{userId}/delete', () => {
    it('deletes an invitation nobody used (audited, its sign-in account removed), never anyone with history', async () => {
      const promoRole = await roleIdOf(demoRole('promo'));
      const sent = await api().postAs<{ user: StaffUser }>(U_EDITOR, '/users', {
        email: 'mistake@example.com',
        display_name: 'Typo',
        role_id: promoRole,
      });
      const id = sent.body.data!.user.user_id;
      expect((await api().postAs(U_EDITOR, `/users/${id}/delete`, { version: 1 })).status).toBe(403);
      expect((await api().postAs('admin@example.com', `/users/${id}/delete`, { version: 9 })).status).toBe(409);
      const deleted = await api().postAs('admin@example.com', `/users/${id}/delete`, { version: 1 });
      expect(deleted.status).toBe(200);
      expect(provider.removed).toContain(fakeUid('mistake@example.com'));
      expect((await api().getAs(U_VIEWER, `/users/${id}`)).status).toBe(404);
      const history = await api().getAs<AuditEntry[]>(U_VIEWER, `/users/${id}/history`);
      expect(history.body.data?.[0]).toMatchObject({ action: 'delete', actor: { email: 'admin@example.com' } });

      await api().signIn('finance@example.com');
      const financeId = await userIdOf('finance@example.com');
      const before = [await userCount(), await userAudits()];
      const refused = await api().postAs('admin@example.com', `/users/${financeId}/delete`, {
        version: (await user(financeId)).version,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/disable them instead/);
      const adminId = await userIdOf('admin@example.com');
      const self = await api().postAs('admin@example.com', `/users/${adminId}/delete`, { version: (await user(adminId)).version });
      expect(self.status).toBe(403);
      expect([await userCount(), await userAudits()]).toEqual(before);
    });
  });

  describe('GET /users/assignable-roles', () => {
    it('offers only the roles the editor may give', async () => {
      const result = await api().getAs<{ name: string }[]>(U_EDITOR, '/users/assignable-roles');
      expect(result.status).toBe(200);
      const names = result.body.data!.map((role) => role.name);
      expect(names).toContain(demoRole('promo'));
      expect(names).toContain(demoRole('noaccess'));
      expect(names).not.toContain(demoRole('finance'));
      expect(names).not.toContain(demoRole('superuser'));
      expect((await api().getAs(U_VIEWER, '/users/assignable-roles')).status).toBe(403);
    });
  });
});
