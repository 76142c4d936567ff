import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { migrate } from './migrate';
import { openPgliteDatabase } from './pglite';

/**
 * The rollups (006_dashboard_rollups.sql) after any sequence of payments, refunds, settlements, deletions, updates that
 * move no money and time zone changes equal a recomputation from the raw rows, to the cent. Times cluster around local
 * midnights and DST changes of the locations' zones: Chicago (02:00 jumps), Santiago (the clock jumps at midnight, so
 * one local day has no 00:00), Lord Howe (a 30-minute DST shift) and Kolkata (+05:30, hours start at :30 UTC).
 * On PGlite: the triggers are the same SQL on PostgreSQL, and PGlite runs the hundreds of statements in seconds.
 */
const ZONES = ['America/Chicago', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata'] as const;
/** DST changes of 2026 in those zones, and local midnights beside them (UTC). */
const ANCHORS = [
  '2026-03-08T08:00:00Z', // Chicago springs forward at 02:00
  '2026-03-08T06:00:00Z', // Chicago midnight, 8 March
  '2026-11-01T07:00:00Z', // Chicago falls back: 01:00–02:00 twice
  '2026-04-05T03:00:00Z', // Santiago falls back at 00:00: midnight twice
  '2026-09-06T04:00:00Z', // Santiago springs forward at 00:00: no midnight
  '2026-04-04T15:00:00Z', // Lord Howe falls back 30 minutes
  '2026-10-03T15:30:00Z', // Lord Howe springs forward 30 minutes
  '2026-03-07T18:30:00Z', // Kolkata midnight
].map((text) => Date.parse(text));

interface ModelPayment {
  id: number;
  locationIndex: number;
  paidAt: number;
  amountCents: number;
  feeCents: number;
  refundedCents: number;
  settledDate: string | null;
}

const moment = fc.record({ anchor: fc.nat(ANCHORS.length - 1), minutes: fc.integer({ min: -200, max: 200 }), seconds: fc.nat(59) });
const newPayment = fc.record({
  locationIndex: fc.nat(ZONES.length - 1),
  moment,
  amountCents: fc.integer({ min: 0, max: 9_999_999 }),
  feeShare: fc.nat(100),
  settleAfterDays: fc.option(fc.nat(3)),
});
const operation = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), payments: fc.array(newPayment, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), cents: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), days: fc.option(fc.nat(4)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rezone' as const), locationIndex: fc.nat(ZONES.length - 1), zone: fc.nat(ZONES.length - 1) }) },
);

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const localDay = (instant: number, zone: string) => format(instant, 'yyyy-MM-dd', { in: tz(zone) });
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type Totals = Record<string, { payments: number; gross: number; fee: number; refunded: number }>;
function add(totals: Totals, key: string, payment: ModelPayment) {
  const row = (totals[key] ??= { payments: 0, gross: 0, fee: 0, refunded: 0 });
  row.payments += 1;
  row.gross += payment.amountCents;
  row.fee += payment.feeCents;
  row.refunded += payment.refundedCents;
}

/** Rows of a rollup table whose figures are not all zero (a key whose payments all went stays as zeros). */
async function rollupRows(db: Db, table: string, key: string): Promise<Totals> {
  const { rows } = await db.query<{ location_id: number; key: string; payments: number; gross: number; fee: number; refunded: number }>(
    `SELECT location_id, ${key}::text AS key, payments::float8 AS payments, gross_cents::float8 AS gross,
            fee_cents::float8 AS fee, refunded_cents::float8 AS refunded
       FROM ${table} WHERE payments <> 0 OR gross_cents <> 0 OR fee_cents <> 0 OR refunded_cents <> 0`,
  );
  return Object.fromEntries(rows.map(({ location_id, key: k, ...figures }) => [`${location_id}|${k}`, figures]));
}

/** The same figures straight from the payments: what the rollups must always equal. */
async function recomputed(db: Db, keyExpression: string, where = 'true'): Promise<Totals> {
  const { rows } = await db.query<{ location_id: number; key: string; payments: number; gross: number; fee: number; refunded: number }>(
    `SELECT t.location_id, (${keyExpression})::text AS key, count(*)::float8 AS payments,
            sum(t.payment_amount * 100)::float8 AS gross, sum(t.fee * 100)::float8 AS fee,
            sum(t.refunded_amount * 100)::float8 AS refunded
       FROM transactions t JOIN locations l ON l.location_id = t.location_id
      WHERE ${where} GROUP BY 1, 2`,
  );
  return Object.fromEntries(rows.map(({ location_id, key, ...figures }) => [`${location_id}|${key}`, figures]));
}

describe('dashboard rollups (PGlite)', () => {
  let db: Db;
  let locationIds: number[] = [];

  beforeAll(async () => {
    db = await openPgliteDatabase();
    await migrate(db);
    const { rows } = await db.query<{ location_id: number }>(
      `INSERT INTO locations (name, address, time_zone, capacity)
       SELECT 'Rollup ' || zone, 'Somewhere', zone, 100 FROM unnest($1::text[]) AS zone RETURNING location_id`,
      [ZONES],
    );
    locationIds = rows.map((row) => row.location_id);
  });
  afterAll(() => db.close());

  it('equal a recomputation from the raw rows after any sequence of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 24 }), async (operations) => {
        await db.query('DELETE FROM transactions');
        await db.query('UPDATE locations SET time_zone = ($1::text[])[array_position($2::int[], location_id)] WHERE location_id = ANY ($2)', [ZONES, locationIds]);
        const zones: string[] = [...ZONES];
        let payments: ModelPayment[] = [];
        const pick = (n: number) => (payments.length ? payments[n % payments.length] : undefined);

        for (const op of operations) {
          if (op.kind === 'pay') {
            const made = op.payments.map((spec) => {
              const paidAt = ANCHORS[spec.moment.anchor]! + spec.moment.minutes * 60_000 + spec.moment.seconds * 1000;
              const amountCents = spec.amountCents;
              const feeCents = Math.floor((amountCents * spec.feeShare) / 1000);
              const settledDate = spec.settleAfterDays === null ? null : addDays(localDay(paidAt, zones[spec.locationIndex]!), spec.settleAfterDays);
              return { locationIndex: spec.locationIndex, paidAt, amountCents, feeCents, refundedCents: 0, settledDate };
            });
            // Several payments in one statement, as the seed writes them.
            const { rows } = await db.query<{ id: number }>(
              `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee, settled_date)
               SELECT location_id, 'PROP1', paid_at, paid_at + interval '1 hour', amount, fee, settled
                 FROM unnest($1::int[], $2::timestamptz[], $3::numeric[], $4::numeric[], $5::date[])
                      AS p(location_id, paid_at, amount, fee, settled)
               RETURNING transaction_id::float8 AS id`,
              [
                made.map((p) => locationIds[p.locationIndex]),
                made.map((p) => new Date(p.paidAt).toISOString()),
                made.map((p) => money(p.amountCents)),
                made.map((p) => money(p.feeCents)),
                made.map((p) => p.settledDate),
              ],
            );
            payments.push(...made.map((p, index) => ({ ...p, id: rows[index]!.id })));
          } else if (op.kind === 'refund') {
            const payment = pick(op.pick);
            const left = payment ? payment.amountCents - payment.refundedCents : 0;
            if (!payment || left <= 0) continue;
            const refund = 1 + (op.cents % left);
            // As the refund endpoint does: the refund row and its payment's refunded amount, in one transaction.
            await db.transaction(async (tx) => {
              await tx.query(`INSERT INTO refunds (transaction_id, amount, reason) VALUES ($1, $2, 'Property test')`, [payment.id, money(refund)]);
              await tx.query(
                `UPDATE transactions SET refunded_amount = refunded_amount + $2::numeric,
                   status = CASE WHEN refunded_amount + $2::numeric = payment_amount THEN 'refunded' ELSE 'partially_refunded' END
                 WHERE transaction_id = $1`,
                [payment.id, money(refund)],
              );
            });
            payment.refundedCents += refund;
          } else if (op.kind === 'settle') {
            const payment = pick(op.pick);
            if (!payment) continue;
            payment.settledDate = op.days === null ? null : addDays(localDay(payment.paidAt, zones[payment.locationIndex]!), op.days);
            await db.query('UPDATE transactions SET settled_date = $2 WHERE transaction_id = $1', [payment.id, payment.settledDate]);
          } else if (op.kind === 'delete') {
            const payment = pick(op.pick);
            if (!payment) continue;
            await db.query('DELETE FROM transactions WHERE transaction_id = $1', [payment.id]);
            payments = payments.filter((p) => p !== payment);
          } else if (op.kind === 'touch') {
            await db.query('UPDATE transactions SET updated_at = updated_at + 1');
          } else {
            zones[op.locationIndex] = ZONES[op.zone]!;
            await db.query('UPDATE locations SET time_zone = $2 WHERE location_id = $1', [locationIds[op.locationIndex], zones[op.locationIndex]]);
          }
        }

        // The model's own reckoning of local days (date-fns with @date-fns/tz), independent of PostgreSQL's.
        const byDay: Totals = {};
        const bySettledDay: Totals = {};
        for (const payment of payments) {
          const locationId = locationIds[payment.locationIndex]!;
          add(byDay, `${locationId}|${localDay(payment.paidAt, zones[payment.locationIndex]!)}`, payment);
          if (payment.settledDate) add(bySettledDay, `${locationId}|${payment.settledDate}`, payment);
        }
        const days = await rollupRows(db, 'payment_day_rollups', 'local_day');
        expect(days).toEqual(byDay);
        expect(days).toEqual(await recomputed(db, '(t.payment_time AT TIME ZONE l.time_zone)::date'));
        const settled = await rollupRows(db, 'settled_day_rollups', 'settled_date');
        expect(settled).toEqual(bySettledDay);
        expect(settled).toEqual(await recomputed(db, 't.settled_date', 't.settled_date IS NOT NULL'));
        const hours = await rollupRows(db, 'payment_hour_rollups', "to_char(hour_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')");
        expect(hours).toEqual(
          await recomputed(db, "to_char(date_trunc('hour', t.payment_time, l.time_zone) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')"),
        );
      }),
      { numRuns: 30 },
    );
  });

  it('start Santiago’s and Kolkata’s local hours where their clocks do', async () => {
    await db.query('DELETE FROM transactions');
    await db.query('UPDATE locations SET time_zone = ($1::text[])[array_position($2::int[], location_id)] WHERE location_id = ANY ($2)', [ZONES, locationIds]);
    // 04:30 UTC on 6 Sep 2026 is 01:30 in Santiago, the first hour of a day that starts at 01:00; 19:10 UTC on
    // 7 Mar is 00:40 on 8 Mar in Kolkata, whose hour started at 18:30 UTC.
    await db.query(
      `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       VALUES ($1, 'SCL1', '2026-09-06T04:30:00Z', '2026-09-06T05:30:00Z', 5.00),
              ($2, 'CCU1', '2026-03-07T19:10:00Z', '2026-03-07T20:10:00Z', 7.25)`,
      [locationIds[1], locationIds[3]],
    );
    const days = await rollupRows(db, 'payment_day_rollups', 'local_day');
    const hours = await rollupRows(db, 'payment_hour_rollups', "to_char(hour_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')");
    const figures = (gross: number) => ({ payments: 1, gross, fee: 0, refunded: 0 });
    expect(days).toEqual({ [`${locationIds[1]}|2026-09-06`]: figures(500), [`${locationIds[3]}|2026-03-08`]: figures(725) });
    expect(hours).toEqual({ [`${locationIds[1]}|2026-09-06 04:00`]: figures(500), [`${locationIds[3]}|2026-03-07 18:30`]: figures(725) });
  });
});
