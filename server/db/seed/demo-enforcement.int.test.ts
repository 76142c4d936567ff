import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { migrate } from '../migrate';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database';
import { applyDemoSeed } from './demo-seed';
import { ensureDemoEnforcementData } from './demo-enforcement';

describe('demo enforcement data', () => {
  let db: Db;
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openTestDatabase('pglite');
    db = testDb.db;
    await migrate(db);
    await applyDemoSeed(db);
  });
  afterAll(() => testDb.dispose());

  const count = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n;

  it('generates the set when nothing is valid, and leaves it alone while something is', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(await ensureDemoEnforcementData(db, 1000, now)).not.toBeNull();
    expect(await count('transactions WHERE expiry_date_time > $1', [now.toISOString()])).toBeGreaterThan(0);
    const total = await count('transactions');
    expect(await ensureDemoEnforcementData(db, 1000, new Date('2026-11-21T13:00:00Z'))).toBeNull();
    expect(await count('transactions')).toBe(total);
  });

  it('regenerates it around the new day once every transaction has expired', async () => {
    const nextWeek = new Date('2026-11-28T12:00:00Z');
    expect(await count('transactions WHERE expiry_date_time > $1', [nextWeek.toISOString()])).toBe(0);
    expect(await ensureDemoEnforcementData(db, 1000, nextWeek)).not.toBeNull();
    expect(await count('transactions WHERE expiry_date_time > $1', [nextWeek.toISOString()])).toBeGreaterThan(0);
  });

  it('generates nothing when asked for no records', async () => {
    expect(await ensureDemoEnforcementData(db, 0, new Date('2027-01-01T00:00:00Z'))).toBeNull();
  });
});
