import type { Queryable } from '../db';

/**
 * Development data for Mailing: every generated monthly parker gets an address made from their name and parker id
 * (@example.com, a domain that never receives mail), the same on each of their vehicle and location rows, so a
 * parker with two vehicles is one recipient; one parker in 20 has opted out. Idempotent: only rows without an
 * address are touched, and an opt-out is recorded once. Returns the counts, for the start-up log.
 */
export async function ensureDemoParkerEmails(db: Queryable): Promise<{ addressed: number; optedOut: number }> {
  const addressed = await db.query<{ n: number }>(
    `WITH done AS (
       UPDATE monthly_parkers
          SET email = lower(regexp_replace(fname, '[^A-Za-z]', '', 'g') || '.' || regexp_replace(lname, '[^A-Za-z]', '', 'g')
                      || '.' || parkerid || '@example.com')
        WHERE email IS NULL
       RETURNING 1)
     SELECT count(*)::int AS n FROM done`,
  );
  const optedOut = await db.query<{ n: number }>(
    `WITH done AS (
       INSERT INTO mailing_opt_outs (email)
       SELECT DISTINCT lower(email) FROM monthly_parkers WHERE email IS NOT NULL AND parkerid % 20 = 7
       ON CONFLICT (email) DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS n FROM done`,
  );
  return { addressed: addressed.rows[0]?.n ?? 0, optedOut: optedOut.rows[0]?.n ?? 0 };
}
