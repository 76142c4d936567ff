import { createHash } from 'node:crypto';
import type { RefundInput, RefundResult } from '../../src/contract/refunds';
import type { PaymentStatus } from '../../src/contract/transactions';
import { writeAudit, type Actor } from './audit';
import type { Db, Queryable } from './db';
import { cents, iso } from './sql';

/** Why a refund was not made. Each one rolls back the whole transaction, the idempotency key included. */
export type RefundRefusal =
  | { kind: 'notFound' }
  | { kind: 'forbidden'; locationId: number }
  | { kind: 'exceeds'; paidCents: number; refundedCents: number }
  | { kind: 'ticket'; field: 'ticket_id'; message: string };

export type RefundOutcome =
  | { kind: 'refunded'; result: RefundResult; replayed: boolean }
  /** The key was used before for another request (another amount, reason, ticket or payment). */
  | { kind: 'keyReused' }
  | RefundRefusal;

class Refused extends Error {
  constructor(readonly refusal: RefundRefusal) {
    super(refusal.kind);
  }
}

/** The request a key stands for: same payment, amount, reason and ticket → same hash. */
export function refundRequestHash(transactionId: number, input: RefundInput): string {
  const canonical = JSON.stringify([transactionId, input.amount_cents, input.reason, input.ticket_id ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** 1250 → 12.50 as numeric, exactly: integer division in SQL, never a float. */
const CENTS_PARAM = (param: string) => `(${param}::bigint::numeric / 100)`;

function statusAfter(paidCents: number, refundedCents: number): PaymentStatus {
  if (refundedCents === 0) return 'paid';
  return refundedCents >= paidCents ? 'refunded' : 'partially_refunded';
}

/**
 * Refunds part or all of a payment, once per idempotency key (docs/decisions.md "Refunds: one lock per payment").
 *
 * In one transaction: claim the key (INSERT … ON CONFLICT DO NOTHING; a concurrent request with the same key waits on
 * the unique index until this one ends), lock the payment row (SELECT … FOR UPDATE; concurrent refunds of one payment
 * queue here), check the amount against paid − already refunded as it is now, write the refund, the payment's new
 * refunded amount and status, the ticket's status, the audit rows and the answer kept for the key. Anything refused
 * rolls all of it back.
 *
 * `mayRefundAt` is the caller's permission check for the payment's location; `mayViewAt` decides between 404 (the
 * payment is hidden from this user) and 403 (visible, but not theirs to refund).
 */
export async function refundPayment(
  db: Db,
  request: {
    actor: Actor;
    key: string;
    transactionId: number;
    input: RefundInput;
    mayViewAt: (locationId: number) => boolean;
    mayRefundAt: (locationId: number) => boolean;
  },
): Promise<RefundOutcome> {
  const { actor, key, transactionId, input } = request;
  const hash = refundRequestHash(transactionId, input);
  try {
    return await db.transaction(async (tx) => {
      // One statement claims the key and locks the payment: a concurrent request with the same key waits on the
      // key's unique index, one with another key on the payment's row, each until the other transaction ends.
      const claimed = await tx.query<{
        claimed: boolean;
        location_id: number | null;
        paid_cents: number;
        refunded_cents: number;
        status: PaymentStatus;
      }>(
        `WITH claim AS (
           INSERT INTO refund_idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM claim) AS claimed, p.*
           FROM (SELECT 1) AS one
           LEFT JOIN LATERAL (
             SELECT location_id, ${cents('payment_amount')} AS paid_cents, ${cents('refunded_amount')} AS refunded_cents, status
               FROM transactions WHERE transaction_id = $4 FOR UPDATE) AS p ON true`,
        [actor.userId, key, hash, transactionId],
      );
      const payment = claimed.rows[0]!;
      if (!payment.claimed) return replay(tx, actor.userId, key, hash);
      if (payment.location_id === null || !request.mayViewAt(payment.location_id)) throw new Refused({ kind: 'notFound' });
      if (!request.mayRefundAt(payment.location_id)) throw new Refused({ kind: 'forbidden', locationId: payment.location_id });
      if (input.amount_cents > payment.paid_cents - payment.refunded_cents) {
        throw new Refused({ kind: 'exceeds', paidCents: payment.paid_cents, refundedCents: payment.refunded_cents });
      }
      if (input.ticket_id !== undefined) await settleTicket(tx, actor, transactionId, input.ticket_id);

      const refundedCents = payment.refunded_cents + input.amount_cents;
      const status = statusAfter(payment.paid_cents, refundedCents);
      const answer: Omit<RefundResult, 'refund_id' | 'created_at'> = {
        transaction_id: transactionId,
        amount_cents: input.amount_cents,
        reason: input.reason,
        ticket_id: input.ticket_id ?? null,
        payment_amount_cents: payment.paid_cents,
        refunded_cents: refundedCents,
        remaining_cents: payment.paid_cents - refundedCents,
        status,
      };
      const audit = {
        before: { refunded_cents: payment.refunded_cents, status: payment.status },
        after: {
          refunded_cents: refundedCents,
          status,
          refund_cents: input.amount_cents,
          reason: input.reason,
          ...(input.ticket_id !== undefined ? { ticket_id: input.ticket_id } : {}),
        },
      };
      // The refund, the payment, its audit row and the answer kept for the key in one statement: the row lock is
      // held for one round trip and the commit, not five (bench:money, BENCHMARKS.md "Money"). The audit row is the
      // one writeAudit writes, with the new refund's id added to `after`.
      const written = await tx.query<{ refund_id: number; created_at: string }>(
        `WITH refund AS (
           INSERT INTO refunds (transaction_id, amount, reason, created_by, ticket_id)
           VALUES ($1, ${CENTS_PARAM('$2')}, $3, $4, $5)
           RETURNING refund_id, ${iso('created_at')} AS created_at),
         payment AS (
           UPDATE transactions SET refunded_amount = refunded_amount + ${CENTS_PARAM('$2')}, status = $6
            WHERE transaction_id = $1 RETURNING 1),
         audit AS (
           INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
           SELECT $4, $7, 'transaction', $1::text, 'refund', $8::jsonb, $9::jsonb || jsonb_build_object('refund_id', refund_id)
             FROM refund RETURNING 1),
         kept AS (
           UPDATE refund_idempotency_keys k
              SET refund_id = refund.refund_id,
                  response = $10::jsonb || jsonb_build_object('refund_id', refund.refund_id, 'created_at', refund.created_at)
             FROM refund WHERE k.user_id = $4 AND k.key = $11 RETURNING 1)
         SELECT refund_id::float8 AS refund_id, created_at FROM refund`,
        [
          transactionId,
          input.amount_cents,
          input.reason,
          actor.userId,
          input.ticket_id ?? null,
          status,
          actor.email,
          JSON.stringify(audit.before),
          JSON.stringify(audit.after),
          JSON.stringify(answer),
          key,
        ],
      );
      const refund = written.rows[0]!;
      return { kind: 'refunded' as const, result: { ...answer, refund_id: refund.refund_id, created_at: refund.created_at }, replayed: false };
    });
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

/** The key was taken by a committed request: its answer again when it was this request, else a refusal. */
async function replay(tx: Queryable, userId: number, key: string, hash: string): Promise<RefundOutcome> {
  const { rows } = await tx.query<{ request_hash: string; response: RefundResult | null }>(
    'SELECT request_hash, response FROM refund_idempotency_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  const stored = rows[0];
  if (!stored || stored.request_hash !== hash || !stored.response) return { kind: 'keyReused' };
  return { kind: 'refunded', result: stored.response, replayed: true };
}

/** A refund made from a ticket must be about the ticket's payment, and the ticket approved (or already refunded in part). */
async function settleTicket(tx: Queryable, actor: Actor, transactionId: number, ticketId: number): Promise<void> {
  const { rows } = await tx.query<{ transaction_id: number; status: string }>(
    'SELECT transaction_id::float8 AS transaction_id, status FROM refund_tickets WHERE ticket_id = $1 FOR UPDATE',
    [ticketId],
  );
  const ticket = rows[0];
  if (!ticket || ticket.transaction_id !== transactionId) {
    throw new Refused({ kind: 'ticket', field: 'ticket_id', message: `Ticket ${ticketId} is not about transaction ${transactionId}.` });
  }
  if (ticket.status === 'open' || ticket.status === 'rejected') {
    throw new Refused({
      kind: 'ticket',
      field: 'ticket_id',
      message: `Ticket ${ticketId} is ${ticket.status}; approve it before refunding.`,
    });
  }
  if (ticket.status === 'refunded') return;
  await tx.query(
    `UPDATE refund_tickets SET status = 'refunded', version = version + 1, updated_at = now(), updated_by = $2
      WHERE ticket_id = $1`,
    [ticketId, actor.userId],
  );
  await writeAudit(tx, {
    actor,
    entity: 'refund_ticket',
    entityId: ticketId,
    action: 'refund',
    before: { status: ticket.status },
    after: { status: 'refunded' },
  });
}
