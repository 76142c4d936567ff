import { createHash } from 'node:crypto';
import type { RedeemInput, Redemption } from '../../src/contract/promo-codes';
import type { Actor } from './audit';
import type { Queryable } from './db';

export type RedeemRefusalReason = 'inactive' | 'notYetValid' | 'expired' | 'otherLocation' | 'usedUp' | 'plateCap';

export type RedeemOutcome =
  | { kind: 'redeemed'; redemption: Redemption; replayed: boolean }
  /** The key was used before for another request (another code, location, plate or quote). */
  | { kind: 'keyReused' }
  | { kind: 'unknownCode' }
  | { kind: 'refused'; reason: RedeemRefusalReason; detail: string };

/** The request a key stands for: the same code (any case), location, plate and quote → the same hash. */
export function redeemRequestHash(input: RedeemInput): string {
  const canonical = JSON.stringify([input.code.toLowerCase(), input.location_id, input.license_plate, input.quote_cents]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** What redeem_promo_code (migration 015) answers. */
type Answer =
  | { kind: 'done' | 'replayed'; result: Redemption }
  | { kind: 'keyReused' }
  | { kind: 'unknownCode' }
  | {
      kind: 'refused';
      reason: RedeemRefusalReason;
      code: string;
      valid_from: string;
      valid_to: string;
      uses: number;
      total_cap: number | null;
      per_plate_cap: number | null;
    };

function refusalDetail(refusal: Extract<Answer, { kind: 'refused' }>, input: RedeemInput): string {
  const code = refusal.code;
  switch (refusal.reason) {
    case 'inactive':
      return `Code ${code} has been deactivated.`;
    case 'notYetValid':
      return `Code ${code} is valid from ${refusal.valid_from}.`;
    case 'expired':
      return `Code ${code} expired at ${refusal.valid_to}.`;
    case 'otherLocation':
      return `Code ${code} does not apply at location ${input.location_id}.`;
    case 'usedUp':
      return `Code ${code} has been used ${refusal.uses} of ${refusal.total_cap} times.`;
    case 'plateCap':
      return `Plate ${input.license_plate} has used code ${code} ${refusal.per_plate_cap} times, its limit.`;
  }
}

/**
 * Applies a code to a quote and counts the use, once per idempotency key, atomically, in one call of
 * redeem_promo_code (migration 015), one statement and so one transaction: it locks the code's row (SELECT … FOR
 * UPDATE), so concurrent redemptions of one code queue there and the count can never pass a cap; a key already taken
 * answers what it kept (a retry racing its first try waits for it, then gets its answer); the window, location, total
 * cap and the plate's uses are checked, and a refusal writes nothing; then the key is claimed and the redemption, the
 * count, the audit row and the answer kept for the key are written. The code's lock is held for the function's run,
 * not across round trips through the API.
 */
export async function redeemPromoCode(db: Queryable, actor: Actor, key: string, input: RedeemInput, now: Date): Promise<RedeemOutcome> {
  const { rows } = await db.query<{ outcome: Answer }>(
    'SELECT redeem_promo_code($1, $2, $3, $4, $5, $6, $7, $8, $9) AS outcome',
    [
      actor.userId,
      actor.email,
      key,
      redeemRequestHash(input),
      input.code,
      input.location_id,
      input.license_plate,
      input.quote_cents,
      now.toISOString(),
    ],
    { prepare: 'redeem_promo_code' },
  );
  const answer = rows[0]!.outcome;
  switch (answer.kind) {
    case 'done':
    case 'replayed':
      return { kind: 'redeemed', redemption: answer.result, replayed: answer.kind === 'replayed' };
    case 'keyReused':
    case 'unknownCode':
      return answer;
    case 'refused':
      return { kind: 'refused', reason: answer.reason, detail: refusalDetail(answer, input) };
  }
}
