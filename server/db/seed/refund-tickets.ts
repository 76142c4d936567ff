import { writeAudit } from '../audit';
import type { Db } from '../db';
import { cents } from '../sql';
import { createRandom } from './prng';

/**
 * A realistic mix of refund tickets on payment history (`npm run seed -- --history-days N`): most recent tickets
 * still open, older ones decided — about half of those approved and refunded (in full or in part, the refund written
 * as the console writes it: a refunds row and the payment's refunded amount and status), some approved and waiting,
 * some rejected — a few with notes. Only payments with nothing refunded yet are chosen.
 */
const REASONS = [
  'Charged twice for the same stay',
  'Paid for the wrong plate',
  'Gate did not open; left and paid again',
  'Pay station charged a full day for one hour',
  'Left early: event was cancelled',
  'App crashed after payment and charged again',
  'Wrong zone selected, paid at the other garage too',
  'Receipt shows more than the posted rate',
];
const NOTES = [
  'Called the parker back; plate confirmed on the camera log.',
  'Processor shows two charges a minute apart.',
  'Asked for a photo of the receipt.',
  'Gate log shows no exit until the second payment.',
];
const DECISIONS = {
  approved: ['Duplicate charge confirmed', 'Camera log confirms the stay', 'Goodwill: first complaint'],
  rejected: ['Stay matches the charge', 'Outside the refund window', 'Plate was parked the whole time'],
};

export interface TicketSeedResult {
  tickets: number;
  refunded: number;
}

export async function seedRefundTickets(
  db: Db,
  options: { count: number; seed: number | string; now: Date; locationIds?: readonly number[] | undefined },
): Promise<TicketSeedResult> {
  const random = createRandom(`refund-tickets:${options.seed}`);
  return db.transaction(async (tx) => {
    const { rows: payments } = await tx.query<{ transaction_id: number; location_id: number; paid_cents: number; paid_at: string }>(
      `SELECT transaction_id::float8 AS transaction_id, location_id, ${cents('payment_amount')} AS paid_cents,
              payment_time::text AS paid_at
         FROM transactions
        WHERE refunded_amount = 0 AND payment_amount >= 1 AND payment_time <= $1::timestamptz
          AND ($2::int[] IS NULL OR location_id = ANY($2::int[]))
          AND NOT EXISTS (SELECT 1 FROM refund_tickets k WHERE k.transaction_id = transactions.transaction_id)
        ORDER BY md5(transaction_id::text || $3)
        LIMIT $4`,
      [options.now.toISOString(), options.locationIds ? [...options.locationIds] : null, String(options.seed), options.count],
    );
    let refunded = 0;
    for (const payment of payments) {
      const openedAt = new Date(Math.min(Date.parse(payment.paid_at) + random.int(1, 72) * 3_600_000, options.now.getTime()));
      const ageDays = (options.now.getTime() - openedAt.getTime()) / 86_400_000;
      // Tickets of the last two days are mostly still open; older ones mostly decided.
      const status = random.weighted<'open' | 'approved' | 'rejected' | 'refunded'>(
        ageDays < 2 ? [['open', 7], ['approved', 1], ['rejected', 1], ['refunded', 1]] : [['open', 1], ['approved', 1], ['rejected', 2], ['refunded', 5]],
      );
      const askedCents = random.chance(0.6) ? payment.paid_cents : Math.max(1, Math.round((payment.paid_cents * random.int(20, 80)) / 100));
      const decision = status === 'open' ? null : random.pick(status === 'rejected' ? DECISIONS.rejected : DECISIONS.approved);
      const { rows } = await tx.query<{ ticket_id: number }>(
        `INSERT INTO refund_tickets (transaction_id, location_id, status, amount_requested, reason, decision_reason, created_at, updated_at)
         VALUES ($1, $2, $3, ($4::bigint::numeric / 100), $5, $6, $7::timestamptz, $7::timestamptz)
         RETURNING ticket_id::float8 AS ticket_id`,
        [payment.transaction_id, payment.location_id, status, askedCents, random.pick(REASONS), decision, openedAt.toISOString()],
      );
      const ticketId = rows[0]!.ticket_id;
      await writeAudit(tx, { actor: null, entity: 'refund_ticket', entityId: ticketId, action: 'create', before: null, after: { status: 'open', amount_requested_cents: askedCents } });
      if (random.chance(0.3)) {
        await tx.query('INSERT INTO refund_ticket_notes (ticket_id, body, created_at) VALUES ($1, $2, $3::timestamptz)', [
          ticketId,
          random.pick(NOTES),
          openedAt.toISOString(),
        ]);
      }
      if (status === 'refunded') {
        refunded++;
        await tx.query(
          `INSERT INTO refunds (transaction_id, amount, reason, created_at, ticket_id)
           VALUES ($1, ($2::bigint::numeric / 100), $3, $4::timestamptz, $5)`,
          [payment.transaction_id, askedCents, decision, openedAt.toISOString(), ticketId],
        );
        await tx.query(
          `UPDATE transactions SET refunded_amount = refunded_amount + ($2::bigint::numeric / 100),
                  status = CASE WHEN refunded_amount + ($2::bigint::numeric / 100) >= payment_amount THEN 'refunded' ELSE 'partially_refunded' END
            WHERE transaction_id = $1`,
          [payment.transaction_id, askedCents],
        );
        await writeAudit(tx, { actor: null, entity: 'transaction', entityId: payment.transaction_id, action: 'refund', before: { refunded_cents: 0 }, after: { refunded_cents: askedCents, ticket_id: ticketId } });
      }
      if (status !== 'open') {
        await writeAudit(tx, { actor: null, entity: 'refund_ticket', entityId: ticketId, action: status, before: { status: 'open' }, after: { status, decision_reason: decision } });
      }
    }
    return { tickets: payments.length, refunded };
  });
}
