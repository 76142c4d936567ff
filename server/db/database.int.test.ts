import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';
import type { Db } from './db';
import { loadMigrations, migrate } from './migrate';
import { applyUserSeed } from './seed/apply-user-seed';
import { DEMO_ACCOUNTS } from './seed/demo-accounts';
import { applyDemoSeed } from './seed/demo-seed';
import { applyDevSeed } from './seed/dev-seed';
import { SeedFileError } from './seed/user-seed-file';
import { findStaffByEmail } from './staff';

/** Every table's content without timestamps, to compare the state before and after re-applying a seed. */
async function snapshot(db: Db) {
  const tables = {
    locations: 'SELECT location_id, name, address, time_zone, capacity, status FROM locations ORDER BY 1',
    roles: 'SELECT role_id, name, superuser FROM roles ORDER BY 1',
    grants: 'SELECT * FROM role_permissions ORDER BY role_id, feature, level, location_id',
    users: 'SELECT user_id, email, display_name, role_id, status FROM users ORDER BY 1',
  };
  const [locations, roles, grants, users] = await Promise.all(
    Object.values(tables).map(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows),
  );
  return { locations, roles, grants, users };
}

describe.each(BACKENDS)('database on %s', (backend) => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    db = test.db;
  });
  afterAll(() => test.dispose());

  it('applies every migration once, then nothing', async () => {
    const names = (await loadMigrations()).map((migration) => migration.name);
    expect(names.length).toBeGreaterThan(0);
    expect(await migrate(db)).toEqual(names);
    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((row) => row.name)).toEqual(names);
  });

  it('rolls a failing migration back completely', async () => {
    const broken = [
      ...(await loadMigrations()),
      { name: '999_broken.sql', sql: 'CREATE TABLE half_done (id int); SELECT * FROM no_such_table;' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow(/no_such_table/);
    const { rows } = await db.query("SELECT 1 FROM schema_migrations WHERE name = '999_broken.sql'");
    expect(rows).toEqual([]);
    await expect(db.query('SELECT 1 FROM half_done')).rejects.toThrow();
  });

  it('enforces the feature codes and lower-case e-mails in the schema', async () => {
    await expect(db.query("INSERT INTO users (email) VALUES ('Upper@Example.com')")).rejects.toThrow();
    const { rows } = await db.query<{ role_id: number }>("INSERT INTO roles (name) VALUES ('check') RETURNING role_id");
    await db.query("INSERT INTO locations (location_id, name, address, time_zone) VALUES (900, 'x', 'y', 'UTC')");
    await expect(
      db.query("INSERT INTO role_permissions VALUES ($1, 'zz', 'view', 900)", [rows[0]!.role_id]),
    ).rejects.toThrow();
    await db.query("DELETE FROM roles WHERE name = 'check'");
    await db.query('DELETE FROM locations WHERE location_id = 900');
  });

  it('seeds the demo data idempotently', async () => {
    await applyDemoSeed(db);
    const first = await snapshot(db);
    await applyDemoSeed(db);
    expect(await snapshot(db)).toEqual(first);
    expect(first.locations).toHaveLength(6);
    expect(first.users?.map((user) => user.email).sort()).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
  });

  it("builds each demo account's permission record from its role", async () => {
    const admin = await findStaffByEmail(db, 'ADMIN@example.com');
    expect(admin?.record.su).toBe(false);
    expect(admin?.record.lo).toEqual({ v: [], a: [], e: [], d: [1, 2, 3, 4, 5, 6] });
    expect((await findStaffByEmail(db, 'superuser@example.com'))?.record).toEqual({ su: true });
    expect((await findStaffByEmail(db, 'officer@example.com'))?.record).toEqual({
      su: false,
      e: { v: [1, 2], a: [1, 2], e: [], d: [] },
    });
    expect((await findStaffByEmail(db, 'noaccess@example.com'))?.record).toEqual({ su: false });
    expect(await findStaffByEmail(db, 'stranger@example.com')).toBeUndefined();
  });

  it('moves the location id sequence past the seeded ids', async () => {
    const { rows } = await db.query<{ location_id: number }>(
      "INSERT INTO locations (name, address, time_zone) VALUES ('New lot', 'Somewhere', 'UTC') RETURNING location_id",
    );
    expect(rows[0]!.location_id).toBe(7);
    await db.query('DELETE FROM locations WHERE location_id = 7');
  });

  it("replaces a seeded user's grants on re-application and lower-cases the e-mail", async () => {
    const createIdentity = vi.fn(async () => ({ uid: 'uid-temp-officer' }));
    const user = { email: 'Temp.Officer@Example.com', password: 'secret1', permissions: { e: { v: [1] } } };
    await applyUserSeed(db, [user], { createIdentity });
    await applyUserSeed(db, [{ ...user, permissions: { e: { v: [2] }, rd: { e: [3] } } }]);
    const staff = await findStaffByEmail(db, 'temp.officer@example.com');
    expect(staff?.email).toBe('temp.officer@example.com');
    expect(staff?.record).toEqual({
      su: false,
      e: { v: [2], a: [], e: [], d: [] },
      rd: { v: [], a: [], e: [3], d: [] },
    });
    expect(createIdentity).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'temp.officer@example.com', password: 'secret1' }),
    );
  });

  it('refuses grants on unknown locations and writes nothing', async () => {
    const users = [
      { email: 'ok@example.com', password: 'secret1', permissions: { e: { v: [1] } } },
      { email: 'bad@example.com', password: 'secret1', permissions: { pc: { a: [1, 99] } } },
    ];
    const error = await applyUserSeed(db, users, { source: 'team.json' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SeedFileError);
    expect((error as Error).message).toContain('team.json');
    expect((error as Error).message).toContain('[1].permissions.pc.a: no location with id 99');
    expect(await findStaffByEmail(db, 'ok@example.com')).toBeUndefined();
  });

  it('applies the dev seed with extra files, skipping a broken one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lpa-seed-'));
    try {
      await writeFile(
        path.join(dir, 'a-team.json'),
        JSON.stringify([
          { email: 'extra@example.com', password: 'secret1', displayName: 'Extra', permissions: { lo: { v: [5] } } },
        ]),
      );
      await writeFile(path.join(dir, 'b-broken.json'), '[{"email": "nope"}]');
      const created: string[] = [];
      const report = await applyDevSeed(db, {
        seedUsersDir: dir,
        createIdentity: async ({ email }) => {
          created.push(email);
          return { uid: `uid-${email}` };
        },
      });
      expect(report.demoAccounts).toBe(DEMO_ACCOUNTS.length);
      expect(report.files).toEqual([{ file: 'a-team.json', users: 1 }]);
      expect(report.failures).toHaveLength(1);
      expect(report.failures[0]?.message).toMatch(/\[0\]\.email/);
      expect(report.identities).toEqual({ status: 'done', accounts: DEMO_ACCOUNTS.length + 1 });
      expect(created).toContain('extra@example.com');
      expect((await findStaffByEmail(db, 'extra@example.com'))?.record.lo?.v).toEqual([5]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
