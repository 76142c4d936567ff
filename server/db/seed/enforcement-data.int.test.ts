import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { migrate } from '../migrate';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../../testing/test-database';
import { seedDemoLocations } from './demo-seed';
import { DEFAULT_FIRST_IDS, EnforcementSeedError, generateEnforcementData, splitRecords } from './enforcement-data';

const NOW = new Date('2026-03-02T15:00:00Z');

async function tableCounts(db: Db) {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM transactions)::int AS transactions,
            (SELECT count(*) FROM bookings WHERE source = 'spothero')::int AS spothero,
            (SELECT count(*) FROM bookings WHERE source = 'parkwhiz')::int AS parkwhiz,
            (SELECT count(*) FROM monthly_parkers)::int AS monthly_parkers`,
  );
  return rows[0];
}

/** Every index and constraint of the enforcement tables, as the database prints them. */
async function schemaOf(db: Db) {
  const tables = `ARRAY['transactions'::regclass, 'bookings'::regclass, 'monthly_parkers'::regclass]`;
  const indexes = await db.query<{ definition: string }>(
    `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = ANY (${tables}) ORDER BY 1`,
  );
  const constraints = await db.query<{ definition: string }>(
    `SELECT conname || ' ' || pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = ANY (${tables}) ORDER BY 1`,
  );
  return [...indexes.rows, ...constraints.rows].map((row) => row.definition);
}

describe.each(BACKENDS)('enforcement data loader on %s', (backend) => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    db = test.db;
    await migrate(db);
    await seedDemoLocations(db);
  });
  afterAll(() => test.dispose());

  it('writes every record, at every location by default', async () => {
    const result = await generateEnforcementData(db, { counts: splitRecords(1000), seed: 'loader', now: NOW });
    expect(result).toMatchObject({ total: 1000, locationIds: [1, 2, 3, 4, 5, 6], firstIds: DEFAULT_FIRST_IDS });
    expect(await tableCounts(db)).toEqual({ transactions: 400, spothero: 200, parkwhiz: 200, monthly_parkers: 200 });
    const { rows } = await db.query<{ locations: number }>('SELECT count(DISTINCT location_id)::int AS locations FROM transactions');
    expect(rows[0]?.locations).toBe(6);
  });

  it('adds to existing data with fresh ids, and moves the id sequence past them', async () => {
    const result = await generateEnforcementData(db, { counts: splitRecords(500), seed: 'loader', now: NOW });
    expect(result.firstIds.transaction).toBe(DEFAULT_FIRST_IDS.transaction + 400);
    expect(result.firstIds.spothero).toBeGreaterThan(DEFAULT_FIRST_IDS.spothero + 200);
    expect(result.firstIds.parker).toBeGreaterThan(DEFAULT_FIRST_IDS.parker + 100);
    expect(await tableCounts(db)).toEqual({ transactions: 600, spothero: 300, parkwhiz: 300, monthly_parkers: 300 });
    const { rows } = await db.query<{ transaction_id: number }>(
      `INSERT INTO transactions (location_id, license_plate, expiry_date_time, payment_time, payment_amount)
       VALUES (1, 'NEW1', now(), now(), 3) RETURNING transaction_id::float8 AS transaction_id`,
    );
    expect(rows[0]?.transaction_id).toBe(DEFAULT_FIRST_IDS.transaction + 600);
  });

  it('replaces everything with reset, at the listed locations only', async () => {
    const result = await generateEnforcementData(db, {
      counts: splitRecords(250),
      seed: 'loader',
      now: NOW,
      locationIds: [2, 4],
      reset: true,
    });
    expect(result.firstIds).toEqual(DEFAULT_FIRST_IDS);
    expect(await tableCounts(db)).toEqual({ transactions: 100, spothero: 50, parkwhiz: 50, monthly_parkers: 50 });
    const { rows } = await db.query<{ location_id: number }>(
      'SELECT DISTINCT location_id FROM monthly_parkers UNION SELECT DISTINCT location_id FROM transactions ORDER BY 1',
    );
    expect(rows.map((row) => row.location_id)).toEqual([2, 4]);
  });

  it('restores every index and foreign key after a bulk load', async () => {
    const before = await schemaOf(db);
    expect(before.some((definition) => /transactions_sync_idx/.test(definition))).toBe(true);
    await generateEnforcementData(db, { counts: splitRecords(2000), seed: 'bulk', now: NOW, reset: true, bulk: true });
    expect(await schemaOf(db)).toEqual(before);
    expect(await tableCounts(db)).toEqual({ transactions: 800, spothero: 400, parkwhiz: 400, monthly_parkers: 400 });
    await expect(
      db.query(
        `INSERT INTO transactions (location_id, license_plate, expiry_date_time, payment_time, payment_amount)
         VALUES (999, 'NOPE', now(), now(), 3)`,
      ),
    ).rejects.toThrow(/foreign key/);
  });

  it('refuses unknown locations and writes nothing', async () => {
    const before = await tableCounts(db);
    const error = await generateEnforcementData(db, { counts: splitRecords(100), locationIds: [1, 99, 98] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EnforcementSeedError);
    expect((error as Error).message).toBe('No location with id 99, 98.');
    expect(await tableCounts(db)).toEqual(before);
  });
});
