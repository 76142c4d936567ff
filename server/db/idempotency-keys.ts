import type { Queryable } from './db';

/**
 * How long an Idempotency-Key is remembered (refunds and promo-code redemptions). A client retries within seconds or
 * minutes; a day covers a console left open over lunch or a checkout that retries after a network outage, and keeps
 * the tables from growing with every refund and redemption ever made. A key older than this is a new request.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Deletes the keys created before `olderThan`; the refunds and redemptions they answered stay. */
export async function purgeIdempotencyKeys(db: Queryable, olderThan: Date): Promise<{ refunds: number; redemptions: number }> {
  const { rows } = await db.query<{ refunds: number; redemptions: number }>(
    `WITH refunds AS (DELETE FROM refund_idempotency_keys WHERE created_at < $1 RETURNING 1),
          redemptions AS (DELETE FROM promo_redemption_keys WHERE created_at < $1 RETURNING 1)
     SELECT (SELECT count(*)::int FROM refunds) AS refunds, (SELECT count(*)::int FROM redemptions) AS redemptions`,
    [olderThan.toISOString()],
  );
  return rows[0]!;
}

/** Purges now and then every hour while the API runs; the returned function stops it. */
export function scheduleIdempotencyKeyPurge(db: Queryable, now: () => Date, logError: (error: unknown) => void): () => void {
  const purge = () =>
    purgeIdempotencyKeys(db, new Date(now().getTime() - IDEMPOTENCY_KEY_TTL_MS)).catch(logError);
  void purge();
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
