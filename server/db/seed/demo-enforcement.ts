import type { Db } from '../db';
import { generateEnforcementData, splitRecords, type EnforcementSeedResult } from './enforcement-data';

/**
 * Enforcement demo data for `npm start`: officers need plates to search. Valid transactions expire within a day of
 * being generated, so when none is valid any more (the next morning) the set is generated afresh around now.
 */
export async function ensureDemoEnforcementData(
  db: Db,
  records: number,
  now: Date = new Date(),
): Promise<EnforcementSeedResult | null> {
  if (records === 0) return null;
  const { rows } = await db.query<{ valid: number }>(
    'SELECT count(*)::int AS valid FROM transactions WHERE expiry_date_time > $1',
    [now.toISOString()],
  );
  if ((rows[0]?.valid ?? 0) > 0) return null;
  return generateEnforcementData(db, { counts: splitRecords(records), reset: true, seed: 'demo', now });
}
