import type { Db } from '../db';
import { generateEnforcementData, splitRecords, type EnforcementSeedResult } from './enforcement-data';
import { HISTORY_ROWS, writePaymentHistory, type PaymentHistorySeedResult } from './payment-history';

/**
 * Enforcement demo data for `npm start`: officers need plates to search. Valid transactions expire within a day of
 * being generated, so when none is valid any more (the next morning) the set is generated afresh around now. The
 * payment history (below) is not counted: it has valid payments of its own, and is looked after separately.
 * Regenerating replaces all enforcement data, history included; ensureDemoPaymentHistory then puts that back.
 */
export async function ensureDemoEnforcementData(
  db: Db,
  records: number,
  now: Date = new Date(),
): Promise<EnforcementSeedResult | null> {
  if (records === 0) return null;
  const { rows } = await db.query<{ valid: number }>(
    `SELECT count(*)::int AS valid FROM transactions WHERE expiry_date_time > $1 AND NOT (${HISTORY_ROWS})`,
    [now.toISOString()],
  );
  if ((rows[0]?.valid ?? 0) > 0) return null;
  return generateEnforcementData(db, { counts: splitRecords(records), reset: true, seed: 'demo', now });
}

export interface DemoPaymentHistoryOptions {
  /** Days of history ending now; 0 for none. */
  days: number;
  /** Payments per location and day, on average (locations share them by capacity). */
  paymentsPerDay: number;
  now?: Date;
}

/**
 * Payment history for `npm start` (dashboards, transactions, refunds): `days` days ending now at every location. Kept
 * while it reaches today: when the newest generated payment falls on today in its location's time zone, nothing is
 * done. Otherwise (none yet, or the first start of a new day) the generated history is replaced by a fresh window
 * ending now. Payments added by other means (they have no processor reference) are left alone.
 */
export async function ensureDemoPaymentHistory(
  db: Db,
  options: DemoPaymentHistoryOptions,
): Promise<PaymentHistorySeedResult | null> {
  const now = options.now ?? new Date();
  if (options.days === 0 || options.paymentsPerDay === 0) return null;
  const { rows } = await db.query<{ current: boolean }>(
    `SELECT (t.payment_time AT TIME ZONE l.time_zone)::date >= ($1::timestamptz AT TIME ZONE l.time_zone)::date
              AS current
       FROM transactions t JOIN locations l USING (location_id)
      WHERE t.processor_reference IS NOT NULL -- HISTORY_ROWS
      ORDER BY t.payment_time DESC
      LIMIT 1`,
    [now.toISOString()],
  );
  if (rows[0]?.current) return null;
  return writePaymentHistory(db, {
    days: options.days,
    paymentsPerDay: options.paymentsPerDay,
    seed: 'demo',
    now,
    replace: true,
  });
}
