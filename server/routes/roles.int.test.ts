import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { Role } from '../../src/contract/roles';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { demoAccount } from '../db/seed/demo-accounts';
import { useSeededApi } from '../testing/seeded-api';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';

/** May view and edit roles, and holds promo codes (edit) at Pike Place Market Garage (3) only. */
const UR_EDITOR = 'role.editor@example.com';
/** May view roles, nothing else. */
const UR_VIEWER = 'role.viewer@example.com';
/** Holds a role of its own that the tests change: location view at 1. */
const HOLDER = 'role.holder@example.com';
const HOLDER_ROLE = 'Lot attendant – Chicago';
const PROMO_ROLE = demoAccount('promo').role;
const SUPERUSER_ROLE = demoAccount('superuser').role;
const ALL = [1, 2, 3, 4, 5, 6];

describe.each(BACKENDS)('roles on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const db = () => context.database.db;
  const count = async (sql: string) => Number((await db().query<{ n: number }>(sql)).rows[0]?.n);
  const roleAudits = () => count("SELECT count(*)::int AS n FROM audit_log WHERE entity = 'role'");
  const roleCount = () => count('SELECT count(*)::int AS n FROM roles');
  const grantCount = () => count('SELECT count(*)::int AS n FROM role_permissions');
  const roleIdOf = async (name: string) =>
    (await db().query<{ role_id: number }>('SELECT role_id FROM roles WHERE name = $1', [name])).rows[0]!.role_id;
  const role = async (id: number) => (await api().getAs<Role>('superuser@example.com', `/roles/${id}`)).body.data!;

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: UR_EDITOR, password: 'secret1', permissions: { ur: { v: ALL, a: ALL, e: ALL, d: ALL }, pc: { e: [3] } } },
      { email: UR_VIEWER, password: 'secret1', permissions: { ur: { v: [1] } } },
      { email: HOLDER, password: 'secret1', role: HOLDER_ROLE, permissions: { lo: { v: [1] } } },
    ]);
  });

  describe('GET /roles', () => {
    it('lists roles with what they grant and how many staff hold each, searched and sorted', async () => {
      const result = await api().getAs<Paged<Role>>(UR_VIEWER, `/roles?q=${encodeURIComponent('promotions – sea')}`);
      expect(result.status).toBe(200);
      expect(result.body.data?.rows).toEqual([
        expect.objectContaining({
          name: PROMO_ROLE,
          superuser: false,
          user_count: 1,
          version: 1,
          permissions: { su: false, pc: { v: [3], a: [3], e: [], d: [] } },
        }),
      ]);
      const byCount = await api().getAs<Paged<Role>>(UR_VIEWER, '/roles?sort=user_count&dir=desc&pageSize=10&page=1');
      const counts = byCount.body.data!.rows.map((row) => row.user_count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });

    it.each(['officer@example.com', 'noaccess@example.com', 'promo@example.com'])('refuses %s (no user roles view)', async (email) => {
      expect((await api().getAs(email, '/roles')).status).toBe(403);
    });

    it('refuses a call without a session', async () => {
      expect((await api().call('GET', '/roles')).status).toBe(401);
    });

    it('names every location for the role editor, to role viewers only', async () => {
      const result = await api().getAs<{ location_id: number; name: string }[]>(UR_VIEWER, '/roles/locations');
      expect(result.status).toBe(200);
      expect(result.body.data?.map((row) => row.location_id).sort()).toEqual(ALL);
      expect((await api().getAs('promo@example.com', '/roles/locations')).status).toBe(403);
    });

    it('answers 404 for a role that does not exist and 400 for a malformed id', async () => {
      expect((await api().getAs(UR_VIEWER, '/roles/999999')).status).toBe(404);
      expect((await api().getAs(UR_VIEWER, '/roles/01')).status).toBe(400);
    });
  });

  describe('POST /roles', () => {
    it('creates a role within what the editor holds, audited', async () => {
      const created = await api().postAs<Role>(UR_EDITOR, '/roles', {
        name: '  Pike promotions ',
        permissions: { pc: { v: [3], a: [3] } },
      });
      expect(created.status).toBe(200);
      expect(created.body.data).toMatchObject({ name: 'Pike promotions', user_count: 0, version: 1 });
      const history = await api().getAs<AuditEntry[]>(UR_VIEWER, `/roles/${created.body.data!.role_id}/history`);
      expect(history.body.data).toEqual([
        expect.objectContaining({ action: 'create', actor: { email: UR_EDITOR, name: null } }),
      ]);
    });

    it('refuses a role granting promo codes where the editor holds none, naming it, and writes nothing', async () => {
      const before = [await roleCount(), await grantCount(), await roleAudits()];
      const result = await api().postAs(UR_EDITOR, '/roles', { name: 'Forged', permissions: { pc: { v: [3, 4] } } });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/Not yours: Promo codes: view at Back Bay Center Garage\./);
      expect([await roleCount(), await grantCount(), await roleAudits()]).toEqual(before);
    });

    it('refuses a level above the one held (delete over edit)', async () => {
      const result = await api().postAs(UR_EDITOR, '/roles', { name: 'Deleter', permissions: { pc: { d: [3] } } });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/Promo codes: delete at/);
    });

    it('lets only a superuser create a superuser role', async () => {
      const byAdmin = await api().postAs('admin@example.com', '/roles', { name: 'Root', permissions: { su: true } });
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body.message).toMatch(/Only a superuser/);
      const bySuperuser = await api().postAs<Role>('superuser@example.com', '/roles', { name: 'Root', permissions: { su: true } });
      expect(bySuperuser.status).toBe(200);
      expect(bySuperuser.body.data?.superuser).toBe(true);
    });

    it('refuses a role viewer (no add)', async () => {
      const before = await roleCount();
      expect((await api().postAs(UR_VIEWER, '/roles', { name: 'X', permissions: {} })).status).toBe(403);
      expect(await roleCount()).toBe(before);
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['an unknown feature', { name: 'Bad', permissions: { zz: { v: [1] } } }, 'permissions'],
      ['an unknown level', { name: 'Bad', permissions: { pc: { x: [1] } } }, 'permissions.pc'],
      ['a location id that does not exist', { name: 'Bad', permissions: { lo: { v: [1, 999] } } }, 'permissions.lo.v'],
      ['a location id beyond any integer key', { name: 'Bad', permissions: { lo: { e: [2 ** 40] } } }, 'permissions.lo.e'],
      ['a location id that is not a number', { name: 'Bad', permissions: { lo: { v: ['1'] } } }, 'permissions.lo.v[0]'],
      ['a duplicate name in another case', { name: 'PIKE PROMOTIONS', permissions: {} }, 'name'],
      ['a blank name', { name: '   ', permissions: {} }, 'name'],
      ['a name too long', { name: 'x'.repeat(81), permissions: {} }, 'name'],
      ['no permissions', { name: 'Bad' }, 'permissions'],
      ['an unknown field', { name: 'Bad', permissions: {}, colour: 'red' }, 'colour'],
    ];
    it.each(bad)('answers 400 naming the field for %s, writing nothing', async (_label, body, field) => {
      const before = [await roleCount(), await grantCount(), await roleAudits()];
      const result = await api().postAs<{ fieldErrors: Record<string, string> }>('superuser@example.com', '/roles', body);
      expect(result.status).toBe(400);
      expect(Object.keys(result.body.data?.fieldErrors ?? {})).toContain(field);
      expect([await roleCount(), await grantCount(), await roleAudits()]).toEqual(before);
    });
  });

  describe('POST /roles/{roleId}', () => {
    it('renames and regrants from the version, refuses a stale version with who changed it', async () => {
      const id = (await api().postAs<Role>(UR_EDITOR, '/roles', { name: 'Pike view', permissions: { pc: { v: [3] } } }))
        .body.data!.role_id;
      const saved = await api().postAs<Role>(UR_EDITOR, `/roles/${id}`, {
        name: 'Pike edit',
        permissions: { pc: { e: [3] } },
        version: 1,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ name: 'Pike edit', version: 2, permissions: { pc: { v: [], a: [], e: [3], d: [] } } });
      const stale = await api().postAs<{ changedBy: unknown }>('admin@example.com', `/roles/${id}`, {
        name: 'Other',
        permissions: {},
        version: 1,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.data).toMatchObject({ currentVersion: 2, changedBy: { email: UR_EDITOR } });
      expect((await role(id)).name).toBe('Pike edit');
      const history = await api().getAs<AuditEntry[]>(UR_VIEWER, `/roles/${id}/history`);
      expect(history.body.data?.[0]?.changes.map((change) => change.field).sort()).toEqual(['name', 'permissions']);
    });

    it('refuses a forged request granting promo codes elsewhere (the matrix does not offer it)', async () => {
      const id = (await api().postAs<Role>(UR_EDITOR, '/roles', { name: 'Pike only', permissions: { pc: { v: [3] } } }))
        .body.data!.role_id;
      const before = [await grantCount(), await roleAudits()];
      const forged = await api().postAs(UR_EDITOR, `/roles/${id}`, {
        name: 'Pike only',
        permissions: { pc: { v: [3, 1] } },
        version: 1,
      });
      expect(forged.status).toBe(403);
      expect([await grantCount(), await roleAudits()]).toEqual(before);
      expect((await role(id)).permissions.pc?.v).toEqual([3]);
    });

    it('refuses taking away what the editor does not hold, and any change of a superuser role by a non-superuser', async () => {
      const holderRole = await roleIdOf(HOLDER_ROLE);
      const strip = await api().postAs(UR_EDITOR, `/roles/${holderRole}`, {
        name: HOLDER_ROLE,
        permissions: {},
        version: (await role(holderRole)).version,
      });
      expect(strip.status).toBe(403);
      expect(strip.body.message).toMatch(/Locations: view at Union Station Garage/);
      const suRole = await roleIdOf(SUPERUSER_ROLE);
      const rename = await api().postAs('admin@example.com', `/roles/${suRole}`, {
        name: 'Renamed',
        permissions: { su: true },
        version: (await role(suRole)).version,
      });
      expect(rename.status).toBe(403);
    });

    it('takes effect on the next call of everyone holding the role, with the same session', async () => {
      const { token } = await api().signIn(HOLDER);
      const call = () => api().call('GET', '/locations/1', { idToken: idTokenFor(HOLDER), session: token });
      expect((await call()).status).toBe(200);
      const holderRole = await roleIdOf(HOLDER_ROLE);
      const removed = await api().postAs('admin@example.com', `/roles/${holderRole}`, {
        name: HOLDER_ROLE,
        permissions: { lo: { v: [2] } },
        version: (await role(holderRole)).version,
      });
      expect(removed.status).toBe(200);
      expect((await call()).status).toBe(403);
    });
  });

  describe('every endpoint refuses staff without the user roles feature, writing nothing', () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/roles'],
      ['GET', '/roles/locations'],
      ['GET', '/roles/1'],
      ['GET', '/roles/1/history'],
      ['POST', '/roles', { name: 'X', permissions: {} }],
      ['POST', '/roles/1', { name: 'X', permissions: {}, version: 1 }],
      ['POST', '/roles/1/delete', { version: 1 }],
    ];
    it.each(['officer@example.com', 'finance@example.com', 'noaccess@example.com'])('%s', async (email) => {
      const before = [await roleCount(), await grantCount(), await roleAudits()];
      for (const [method, path, json] of calls) {
        const result = method === 'GET' ? await api().getAs(email, path) : await api().postAs(email, path, json);
        expect(result.status, `${method} ${path}`).toBe(403);
      }
      expect([await roleCount(), await grantCount(), await roleAudits()]).toEqual(before);
    });

    it('lets a role viewer read but not write', async () => {
      const id = await roleIdOf(PROMO_ROLE);
      for (const path of ['/roles', '/roles/locations', `/roles/${id}`, `/roles/${id}/history`]) {
        expect((await api().getAs(UR_VIEWER, path)).status, path).toBe(200);
      }
      expect((await api().postAs(UR_VIEWER, `/roles/${id}`, { name: 'X', permissions: {}, version: 1 })).status).toBe(403);
    });
  });

  describe('POST /roles/{roleId}/delete', () => {
    it('refuses to delete a role someone holds, saying who', async () => {
      const id = await roleIdOf(PROMO_ROLE);
      const result = await api().postAs<{ holders: { email: string }[] }>('admin@example.com', `/roles/${id}/delete`, {
        version: (await role(id)).version,
      });
      expect(result.status).toBe(409);
      expect(result.body.message).toMatch(/Priya Promo/);
      expect(result.body.data?.holders.map((holder) => holder.email)).toEqual(['promo@example.com']);
      expect((await role(id)).name).toBe(PROMO_ROLE);
    });

    it('deletes an unused role (audited), and refuses one without delete permission', async () => {
      const id = (await api().postAs<Role>(UR_EDITOR, '/roles', { name: 'Short-lived', permissions: { pc: { v: [3] } } }))
        .body.data!.role_id;
      expect((await api().postAs(UR_VIEWER, `/roles/${id}/delete`, { version: 1 })).status).toBe(403);
      expect((await api().postAs(UR_EDITOR, `/roles/${id}/delete`, { version: 7 })).status).toBe(409);
      const deleted = await api().postAs(UR_EDITOR, `/roles/${id}/delete`, { version: 1 });
      expect(deleted.status).toBe(200);
      expect((await api().getAs(UR_VIEWER, `/roles/${id}`)).status).toBe(404);
      const history = await api().getAs<AuditEntry[]>(UR_VIEWER, `/roles/${id}/history`);
      expect(history.body.data?.[0]).toMatchObject({ action: 'delete', actor: { email: UR_EDITOR } });
    });
  });
});
