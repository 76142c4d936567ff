import { createHash } from 'node:crypto';
import { discountCents, type PromoCode, type RedeemInput, type Redemption } from '../../src/contract/promo-codes';
import type { Actor } from './audit';
import type { Db, Queryable } from './db';
import { iso } from './sql';

export type RedeemRefusalReason = 'inactive' | 'notYetValid' | 'expired' | 'otherLocation' | 'usedUp' | 'plateCap';

export type RedeemOutcome =
  | { kind: 'redeemed'; redemption: Redemption; replayed: boolean }
  /** The key was used before for another request (another code, location, plate or quote). */
  | { kind: 'keyReused' }
  | { kind: 'unknownCode' }
  | { kind: 'refused'; reason: RedeemRefusalReason; detail: string };

type Refusal = Extract<RedeemOutcome, { kind: 'unknownCode' | 'refused' }>;

class RedeemRefused extends Error {
  constructor(readonly outcome: Refusal) {
    super(outcome.kind);
  }
}

/** The request a key stands for: the same code (any case), location, plate and quote → the same hash. */
export function redeemRequestHash(input: RedeemInput): string {
  const canonical = JSON.stringify([input.code.toLowerCase(), input.location_id, input.license_plate, input.quote_cents]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Applies a code to a quote and counts the use, once per idempotency key, atomically: one statement claims the key
 * and locks the code's row (SELECT … FOR UPDATE), so concurrent redemptions of one code queue there and the count can
 * never pass a cap, and a retry with the key waits for the first request, then gets its answer again. Its window,
 * location, total cap and the plate's uses are checked, then one statement writes the redemption, the count, the
 * audit row and the answer kept for the key. A refusal rolls everything back, the key included.
 */
export async function redeemPromoCode(db: Db, actor: Actor, key: string, input: RedeemInput, now: Date): Promise<RedeemOutcome> {
  const hash = redeemRequestHash(input);
  try {
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<{
        claimed: boolean;
        promo_code_id: number | null;
        code: string;
        discount_type: PromoCode['discount_type'];
        discount_value: number;
        total_cap: number | null;
        per_plate_cap: number | null;
        uses: number;
        active: boolean;
        not_yet: boolean;
        ended: boolean;
        valid_from: string;
        valid_to: string;
        at_location: boolean;
      }>(
        `WITH claim AS (
           INSERT INTO promo_redemption_keys (user_id, key, request_hash) VALUES ($4, $5, $6)
           ON CONFLICT DO NOTHING RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM claim) AS claimed, c.*
           FROM (SELECT 1) AS one
           LEFT JOIN LATERAL (
             SELECT p.promo_code_id, p.code, p.discount_type, p.discount_value, p.total_cap, p.per_plate_cap, p.uses, p.active,
                    p.valid_from > $2::timestamptz AS not_yet, p.valid_to <= $2::timestamptz AS ended,
                    ${iso('p.valid_from')} AS valid_from, ${iso('p.valid_to')} AS valid_to,
                    EXISTS (SELECT 1 FROM promo_code_locations pl WHERE pl.promo_code_id = p.promo_code_id AND pl.location_id = $3) AS at_location
               FROM promo_codes p WHERE lower(p.code) = lower($1) FOR UPDATE) AS c ON true`,
        [input.code, now.toISOString(), input.location_id, actor.userId, key, hash],
      );
      const code = rows[0]!;
      if (!code.claimed) return replay(tx, actor.userId, key, hash);
      if (code.promo_code_id === null) throw new RedeemRefused({ kind: 'unknownCode' });
      const refuse = (reason: RedeemRefusalReason, detail: string): never => {
        throw new RedeemRefused({ kind: 'refused', reason, detail });
      };
      if (!code.active) refuse('inactive', `Code ${code.code} has been deactivated.`);
      if (code.not_yet) refuse('notYetValid', `Code ${code.code} is valid from ${code.valid_from}.`);
      if (code.ended) refuse('expired', `Code ${code.code} expired at ${code.valid_to}.`);
      if (!code.at_location) refuse('otherLocation', `Code ${code.code} does not apply at location ${input.location_id}.`);
      if (code.total_cap !== null && code.uses >= code.total_cap) {
        refuse('usedUp', `Code ${code.code} has been used ${code.uses} of ${code.total_cap} times.`);
      }
      if (code.per_plate_cap !== null) {
        const plateUses = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM promo_redemptions WHERE promo_code_id = $1 AND license_plate = $2',
          [code.promo_code_id, input.license_plate],
        );
        if (plateUses.rows[0]!.n >= code.per_plate_cap) {
          refuse('plateCap', `Plate ${input.license_plate} has used code ${code.code} ${code.per_plate_cap} times, its limit.`);
        }
      }
      const discount = discountCents(code.discount_type, code.discount_value, input.quote_cents);
      const freeMinutes = code.discount_type === 'minutes' ? code.discount_value : 0;
      const answer: Omit<Redemption, 'redemption_id'> = {
        promo_code_id: code.promo_code_id,
        code: code.code,
        quote_cents: input.quote_cents,
        discount_cents: discount,
        free_minutes: freeMinutes,
        total_cents: input.quote_cents - discount,
        uses: code.uses + 1,
        remaining: code.total_cap === null ? null : code.total_cap - code.uses - 1,
      };
      // The redemption, the count, its audit row (the one writeAudit would write, under its own entity so that a busy
      // code's History keeps showing its edits) and the kept answer in one statement: the code's row lock is held for
      // one round trip and the commit.
      const written = await tx.query<{ redemption_id: number }>(
        `WITH redemption AS (
           INSERT INTO promo_redemptions (promo_code_id, location_id, license_plate, quote_cents, discount_cents, free_minutes, redeemed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz) RETURNING redemption_id),
         counted AS (UPDATE promo_codes SET uses = uses + 1 WHERE promo_code_id = $1 RETURNING 1),
         audit AS (
           INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
           SELECT $8, $9, 'promo_redemption', redemption_id::text, 'redeem', NULL,
                  $10::jsonb || jsonb_build_object('redemption_id', redemption_id)
             FROM redemption RETURNING 1),
         kept AS (
           UPDATE promo_redemption_keys k
              SET redemption_id = redemption.redemption_id,
                  response = $11::jsonb || jsonb_build_object('redemption_id', redemption.redemption_id)
             FROM redemption WHERE k.user_id = $8 AND k.key = $12 RETURNING 1)
         SELECT redemption_id::float8 AS redemption_id FROM redemption`,
        [
          code.promo_code_id,
          input.location_id,
          input.license_plate,
          input.quote_cents,
          discount,
          freeMinutes,
          now.toISOString(),
          actor.userId,
          actor.email,
          JSON.stringify({ ...answer, location_id: input.location_id, license_plate: input.license_plate }),
          JSON.stringify(answer),
          key,
        ],
      );
      const redemption: Redemption = { ...answer, redemption_id: written.rows[0]!.redemption_id };
      return { kind: 'redeemed' as const, redemption, replayed: false };
    });
  } catch (error) {
    if (error instanceof RedeemRefused) return error.outcome;
    throw error;
  }
}

/** The key was taken by a committed redemption: its answer again when it was this request, else a refusal. */
async function replay(tx: Queryable, userId: number, key: string, hash: string): Promise<RedeemOutcome> {
  const { rows } = await tx.query<{ request_hash: string; response: Redemption | null }>(
    'SELECT request_hash, response FROM promo_redemption_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  const stored = rows[0];
  if (!stored || stored.request_hash !== hash || !stored.response) return { kind: 'keyReused' };
  return { kind: 'redeemed', redemption: stored.response, replayed: true };
}
