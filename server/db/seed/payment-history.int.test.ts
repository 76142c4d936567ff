import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { listSyncPage } from '../enforcement';
import { migrate } from '../migrate';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../../testing/test-database';
import { ensureDemoEnforcementData, ensureDemoPaymentHistory } from './demo-enforcement';
import { seedDemoLocations } from './demo-seed';
import { DEFAULT_FIRST_IDS, generateEnforcementData, splitRecords } from './enforcement-data';
import { centsToNumeric, generatePaymentHistory, numericToCents, writePaymentHistory } from './payment-history';

// Wednesday afternoon in the US: the window holds a weekend, so some payments wait for Monday's settlement.
const NOW = new Date('2026-03-11T20:00:00Z');

/** Every transaction as the database has it, money and dates as text (exact, whatever the driver does). */
async function readPayments(db: Db) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT transaction_id::float8 AS transaction_id, location_id, license_plate,
            to_char(payment_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') AS payment_time,
            to_char(expiry_date_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') AS expiry_date_time,
            payment_amount::text AS payment_amount, fee::text AS fee, payment_method, status,
            refunded_amount::text AS refunded_amount, processor_reference,
            to_char(settled_date, 'YYYY-MM-DD') AS settled_date, phone_number, updated_at::float8 AS updated_at,
            phone_last4
       FROM transactions ORDER BY transaction_id`,
  );
  return rows;
}

async function readRefunds(db: Db) {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT transaction_id::float8 AS transaction_id, amount::text AS amount, reason,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') AS created_at
       FROM refunds ORDER BY refund_id`,
  );
  return rows;
}

/** Indexes and constraints of the two tables, as the database prints them. */
async function schemaOf(db: Db) {
  const tables = `ARRAY['transactions'::regclass, 'refunds'::regclass]`;
  const { rows } = await db.query<{ definition: string }>(
    `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = ANY (${tables})
     UNION ALL
     SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = ANY (${tables})
     ORDER BY 1`,
  );
  return rows.map((row) => row.definition);
}

const count = async (db: Db, sql: string, params: unknown[] = []) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n;

describe.each(BACKENDS)('payment history on %s', (backend) => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await openTestDatabase(backend);
    db = test.db;
    await migrate(db);
    await seedDemoLocations(db);
  });
  afterAll(() => test.dispose());

  it('writes what the generator makes, and every row passes the schema', async () => {
    const options = { days: 4, paymentsPerDay: 60, seed: 'int', now: NOW, refundRate: 0.05 };
    const result = await writePaymentHistory(db, options);
    const { rows: locations } = await db.query<{ location_id: number; time_zone: string; capacity: number; address: string }>(
      'SELECT location_id, time_zone, capacity, address FROM locations ORDER BY location_id',
    );
    const expected = [...generatePaymentHistory({ ...options, locations, firstTransactionId: DEFAULT_FIRST_IDS.transaction })];
    expect(result).toMatchObject({
      payments: expected.length,
      refunds: expected.reduce((sum, row) => sum + row.refunds.length, 0),
      locationIds: [1, 2, 3, 4, 5, 6],
      firstTransactionId: DEFAULT_FIRST_IDS.transaction,
    });
    expect(result.payments).toBeGreaterThan(1000);
    expect(result.refunds).toBeGreaterThan(10);

    const stored = await readPayments(db);
    expect(stored).toEqual(
      expected.map(({ refunds: _refunds, ...row }) => ({ ...row, phone_last4: row.phone_number?.slice(-4) ?? null })),
    );
    expect(await readRefunds(db)).toEqual(
      expected.flatMap((row) => row.refunds.map((refund) => ({ transaction_id: row.transaction_id, ...refund }))),
    );
    // Sums in the database are exact, and agree with the cents.
    const { rows } = await db.query<{ amount: string; fee: string; refunded: string; refunds: string }>(
      `SELECT sum(payment_amount)::text AS amount, sum(fee)::text AS fee, sum(refunded_amount)::text AS refunded,
              (SELECT sum(amount) FROM refunds)::text AS refunds FROM transactions`,
    );
    const cents = (key: 'payment_amount' | 'fee' | 'refunded_amount') =>
      centsToNumeric(expected.reduce((sum, row) => sum + numericToCents(row[key]), 0));
    expect(rows[0]).toEqual({
      amount: cents('payment_amount'),
      fee: cents('fee'),
      refunded: cents('refunded_amount'),
      refunds: cents('refunded_amount'),
    });
    // Friday's payments settled on Monday, today's not yet; none refunded beyond its amount.
    expect(await count(db, `transactions WHERE settled_date = '2026-03-09'`)).toBeGreaterThan(0);
    expect(await count(db, 'transactions WHERE settled_date IS NULL')).toBeGreaterThan(0);
    expect(
      await count(db, 'transactions t WHERE refunded_amount <> (SELECT coalesce(sum(amount), 0) FROM refunds r WHERE r.transaction_id = t.transaction_id)'),
    ).toBe(0);
  });

  it('serves the history through the enforcement sync in the contract’s shape', async () => {
    for (const type of ['valid', 'expired'] as const) {
      const page = await listSyncPage(db, { type, locationIds: [1, 2, 3, 4, 5, 6], updatedAtFrom: 0, offset: 0, limit: 50, now: NOW });
      expect(page.length).toBeGreaterThan(0);
      for (const record of page) {
        expect(Object.keys(record).sort()).toEqual([
          'expiry_date_time', 'expiry_date_time_unix', 'license_plate', 'location_id', 'payment_amount', 'payment_time',
          'phone_number', 'refunded_amount', 'transaction_id', 'updated_at',
        ]);
      }
    }
  });

  it('bulk-loads with indexes and foreign keys restored, ids after the highest, and replaces only generated history', async () => {
    const before = await schemaOf(db);
    const { rows: kept } = await db.query<{ transaction_id: number }>(
      `INSERT INTO transactions (location_id, license_plate, expiry_date_time, payment_time, payment_amount)
       VALUES (2, 'KEEP1', now(), now(), 3) RETURNING transaction_id::float8 AS transaction_id`,
    );
    const highest = kept[0]!.transaction_id;
    const result = await writePaymentHistory(db, { days: 2, total: 3000, seed: 'bulk', now: NOW, replace: true, bulk: true });
    expect(result.payments).toBe(3000);
    expect(result.firstTransactionId).toBe(highest + 1);
    expect(await schemaOf(db)).toEqual(before);
    expect(await count(db, 'transactions')).toBe(3001);
    expect(await count(db, `transactions WHERE license_plate = 'KEEP1'`)).toBe(1);
    expect(await count(db, 'refunds r JOIN transactions t USING (transaction_id)')).toBe(result.refunds);
    const { rows } = await db.query<{ transaction_id: number }>(
      `INSERT INTO transactions (location_id, license_plate, expiry_date_time, payment_time, payment_amount)
       VALUES (1, 'NEXT1', now(), now(), 3) RETURNING transaction_id::float8 AS transaction_id`,
    );
    expect(rows[0]!.transaction_id).toBe(highest + 3001);
    await expect(
      db.query(`INSERT INTO refunds (transaction_id, amount, reason) VALUES (1, 1, 'no such payment')`),
    ).rejects.toThrow(/foreign key/);
  });

  it('keeps the dev history while it reaches today, and renews it on a new day', async () => {
    await generateEnforcementData(db, { counts: splitRecords(0), reset: true });
    const options = { days: 3, paymentsPerDay: 40, now: NOW };
    const first = await ensureDemoPaymentHistory(db, options);
    expect(first?.payments).toBeGreaterThan(500);
    expect(await ensureDemoPaymentHistory(db, { ...options, now: new Date('2026-03-11T23:00:00Z') })).toBeNull();
    expect(await ensureDemoPaymentHistory(db, { ...options, days: 0 })).toBeNull();

    // The enforcement set does not count the history's valid payments: it is generated, replacing all (refunds too).
    expect(await ensureDemoEnforcementData(db, 500, NOW)).not.toBeNull();
    expect(await count(db, 'transactions WHERE processor_reference IS NOT NULL')).toBe(0);
    expect(await ensureDemoEnforcementData(db, 500, NOW)).toBeNull();
    const renewed = await ensureDemoPaymentHistory(db, options);
    expect(renewed?.payments).toBe(first?.payments);

    // The next day (in every demo time zone): a fresh window ending then, the enforcement set untouched.
    const tomorrow = new Date('2026-03-12T20:00:00Z');
    const next = await ensureDemoPaymentHistory(db, { ...options, now: tomorrow });
    expect(next).not.toBeNull();
    expect(await count(db, 'transactions WHERE processor_reference IS NOT NULL')).toBe(next!.payments);
    expect(await count(db, 'transactions WHERE processor_reference IS NULL')).toBe(200);
    expect(
      await count(db, `transactions WHERE processor_reference IS NOT NULL AND payment_time < $1`, [
        new Date(tomorrow.getTime() - 3 * 24 * 3600 * 1000).toISOString(),
      ]),
    ).toBe(0);
  });
});
