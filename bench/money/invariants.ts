import type { Db } from '../../server/db/db';

/**
 * The money invariants, checked in SQL after the bench (each must be 0): every payment's refunded amount equals the
 * sum of its refunds and never exceeds what was paid, its status follows; one audit row per refund and per
 * redemption; one key per refund and no key without its refund or redemption; each code's uses equal its redemptions
 * and stay within its cap.
 */
export async function checkInvariants(db: Db) {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT
       (SELECT count(*)::int FROM transactions t
         WHERE t.refunded_amount <> coalesce((SELECT sum(r.amount) FROM refunds r WHERE r.transaction_id = t.transaction_id), 0)
            OR t.refunded_amount > t.payment_amount
            OR t.status <> CASE WHEN t.refunded_amount = 0 THEN 'paid'
                                WHEN t.refunded_amount = t.payment_amount THEN 'refunded' ELSE 'partially_refunded' END)
         AS payments_off,
       (SELECT count(*)::int FROM refunds r
         WHERE (SELECT count(*) FROM audit_log a WHERE a.entity = 'transaction' AND a.action = 'refund'
                  AND a.entity_id = r.transaction_id::text AND (a.after ->> 'refund_id')::bigint = r.refund_id) <> 1)
         AS refunds_without_one_audit_row,
       (SELECT count(*)::int FROM refunds r WHERE NOT EXISTS (SELECT 1 FROM refund_idempotency_keys k WHERE k.refund_id = r.refund_id))
         AS refunds_without_key,
       (SELECT count(*)::int FROM refund_idempotency_keys WHERE refund_id IS NULL) AS keys_without_refund,
       (SELECT count(*)::int FROM promo_codes p
         WHERE p.uses <> (SELECT count(*) FROM promo_redemptions r WHERE r.promo_code_id = p.promo_code_id)
            OR p.uses > coalesce(p.total_cap, p.uses)) AS codes_off,
       (SELECT count(*)::int FROM promo_redemptions r
         WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.entity = 'promo_redemption' AND a.entity_id = r.redemption_id::text))
         AS redemptions_without_audit_row,
       (SELECT count(*)::int FROM promo_redemption_keys WHERE redemption_id IS NULL) AS redemption_keys_without_redemption`,
  );
  return rows[0]!;
}
