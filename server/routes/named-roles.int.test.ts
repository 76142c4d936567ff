import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignableRole, StaffUser } from '../../src/contract/users';
import type { Role } from '../../src/contract/roles';
import { migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { DEMO_ACCOUNTS } from '../db/seed/demo-accounts';
import { applyDemoSeed } from '../db/seed/demo-seed';
import { SeedFileError } from '../db/seed/user-seed-file';
import { createTestApi } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';

/** Two people doing one job, sharing one role, and one with users edit but no user roles add. */
const DESK_ONE = 'desk.one@example.com';
const DESK_TWO = 'desk.two@example.com';
const NIGHT_DESK = 'Night desk – Chicago';
const USERS_ONLY = 'users.only@example.com';

describe.each(BACKENDS)('roles are named templates on %s', (backend) => {
  const context = {} as { database: TestDatabase; api: ReturnType<typeof createTestApi> };
  beforeAll(async () => {
    context.database = await openTestDatabase(backend);
    await migrate(context.database.db);
    await applyDemoSeed(context.database.db);
    context.api = createTestApi(context.database.db);
    await applyUserSeed(context.database.db, [
      { email: DESK_ONE, password: 'secret1', displayName: 'Ana Ruiz', role: NIGHT_DESK, permissions: { rp: { v: [1] } } },
      { email: DESK_TWO, password: 'secret1', displayName: 'Bo Chen', role: NIGHT_DESK, permissions: { rp: { v: [1] } } },
      { email: USERS_ONLY, password: 'secret1', role: 'Staff desk', permissions: { u: { e: [1] }, rp: { e: [1] } } },
    ]);
  });
  afterAll(async () => {
    expect(context.api?.serverErrors ?? []).toEqual([]);
    await context.database?.dispose();
  });
  const api = () => context.api;
  const db = () => context.database.db;
  const roleNames = async () => (await db().query<{ name: string }>('SELECT name FROM roles ORDER BY name')).rows.map((r) => r.name);
  const userOf = async (email: string) =>
    (await db().query<{ user_id: number; role_id: number; version: number }>('SELECT user_id, role_id, version FROM users WHERE email = $1', [email])).rows[0]!;
  const roleOf = async (roleId: number) => (await api().getAs<Role>('superuser@example.com', `/roles/${roleId}`)).body.data!;

  it('seeds roles named for jobs, shared by the people doing the job, and none named after a person', async () => {
    const names = await roleNames();
    for (const account of DEMO_ACCOUNTS) {
      const { rows } = await db().query<{ name: string }>(
        'SELECT r.name FROM users u JOIN roles r ON r.role_id = u.role_id WHERE u.email = $1',
        [account.email],
      );
      expect(rows[0]?.name).toBe(account.role);
    }
    expect(names.filter((name) => name.includes('@'))).toEqual([]);
    expect((await userOf(DESK_ONE)).role_id).toBe((await userOf(DESK_TWO)).role_id);
    // Re-applying the demo seed changes nothing and leaves no role behind.
    await applyDemoSeed(db());
    expect(await roleNames()).toEqual(names);
  });

  it('drops the per-person roles an older seed made, once nobody holds them', async () => {
    await db().query("INSERT INTO roles (name) VALUES ('user:former@example.com')");
    await applyDemoSeed(db());
    expect((await roleNames()).filter((name) => name.startsWith('user:'))).toEqual([]);
  });

  it('refuses a seed file whose users name one role with different access, writing nothing', async () => {
    const before = await roleNames();
    const error = await applyUserSeed(db(), [
      { email: 'a.one@example.com', password: 'secret1', role: 'Gate crew', permissions: { e: { v: [1] } } },
      { email: 'a.two@example.com', password: 'secret1', role: 'gate crew', permissions: { e: { v: [2] } } },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SeedFileError);
    expect((error as Error).message).toMatch(/\[1\]\.permissions.*same role "gate crew"/s);
    expect(await roleNames()).toEqual(before);
  });

  it('says who holds each role the editor may give', async () => {
    const result = await api().getAs<AssignableRole[]>('admin@example.com', '/users/assignable-roles');
    expect(result.status).toBe(200);
    const desk = result.body.data!.find((role) => role.name === NIGHT_DESK);
    expect(desk).toMatchObject({ holders: ['Ana Ruiz', 'Bo Chen'], holder_count: 2 });
    const finance = result.body.data!.find((role) => role.name === 'Finance');
    expect(finance).toMatchObject({ holders: ['Frank Finance'], holder_count: 1 });
    // A role nobody holds says so by an empty list, not by a missing field.
    await db().query("INSERT INTO roles (name) VALUES ('Unused job')");
    const unused = (await api().getAs<AssignableRole[]>('admin@example.com', '/users/assignable-roles')).body.data!;
    expect(unused.find((role) => role.name === 'Unused job')).toMatchObject({ holders: [], holder_count: 0 });
  });

  describe('POST /users/{userId}/new-role (save as new role)', () => {
    const body = async (email: string, name: string, permissions: object) => ({
      version: (await userOf(email)).version,
      role: { name, permissions },
    });

    it('refuses without user roles add, an existing name, or an old version, writing nothing', async () => {
      const { user_id: userId } = await userOf(DESK_TWO);
      const before = [await roleNames(), await userOf(DESK_TWO)];
      const withoutRoles = await api().postAs(USERS_ONLY, `/users/${userId}/new-role`, await body(DESK_TWO, 'Desk B', { rp: { e: [1] } }));
      expect(withoutRoles.status).toBe(403);
      const taken = await api().postAs('admin@example.com', `/users/${userId}/new-role`, await body(DESK_TWO, 'finance', { rp: { v: [1] } }));
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({ data: { fieldErrors: { 'role.name': expect.stringContaining('already exists') } } });
      const stale = { ...(await body(DESK_TWO, 'Desk C', { rp: { v: [1] } })), version: (await userOf(DESK_TWO)).version + 1 };
      expect((await api().postAs('admin@example.com', `/users/${userId}/new-role`, stale)).status).toBe(409);
      const nowhere = await api().postAs('admin@example.com', `/users/${userId}/new-role`, await body(DESK_TWO, 'Desk D', { rp: { v: [99] } }));
      expect(nowhere.status).toBe(400);
      expect([await roleNames(), await userOf(DESK_TWO)]).toEqual(before);
    });

    it('creates the named role with the chosen access for this user only; the shared role is unchanged', async () => {
      const shared = await roleOf((await userOf(DESK_ONE)).role_id);
      const { user_id: userId } = await userOf(DESK_TWO);
      const saved = await api().postAs<StaffUser>(
        'admin@example.com',
        `/users/${userId}/new-role`,
        await body(DESK_TWO, ' Night desk lead – Chicago ', { rp: { v: [1], e: [1] } }),
      );
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ role_name: 'Night desk lead – Chicago', display_name: 'Bo Chen' });
      const created = await roleOf(saved.body.data!.role_id!);
      expect(created.permissions.rp).toEqual({ v: [1], a: [], e: [1], d: [] });
      expect(created.user_count).toBe(1);
      const after = await roleOf((await userOf(DESK_ONE)).role_id);
      expect(after).toEqual({ ...shared, user_count: 1 });
      const history = await api().getAs<{ action: string }[]>('superuser@example.com', `/roles/${created.role_id}/history`);
      expect(history.body.data?.map((entry) => entry.action)).toEqual(['create']);
    });
  });
});
