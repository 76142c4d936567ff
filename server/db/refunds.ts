import { createHash } from 'node:crypto';
import type { RefundInput, RefundResult } from '../../src/contract/refunds';
import type { LocationScope } from '../../src/permissions/scope';
import type { Actor } from './audit';
import type { Queryable } from './db';

/** Why a refund was not made. Nothing is written for any of them, the idempotency key included. */
export type RefundRefusal =
  | { kind: 'notFound' }
  | { kind: 'forbidden'; locationId: number }
  | { kind: 'exceeds'; paidCents: number; refundedCents: number }
  | { kind: 'ticket'; field: 'ticket_id'; message: string }
  /** Above what the ticket asked for less its refunds so far. */
  | { kind: 'ticketExceeds'; ticketId: number; requestedCents: number; refundedCents: number };

export type RefundOutcome =
  | { kind: 'refunded'; result: RefundResult; replayed: boolean }
  /** The key was used before for another request (another amount, reason, ticket or payment). */
  | { kind: 'keyReused' }
  | RefundRefusal;

/** What refund_payment (migration 015) answers. */
type Answer =
  | { kind: 'done' | 'replayed'; result: RefundResult }
  | { kind: 'keyReused' }
  | { kind: 'notFound' }
  | { kind: 'forbidden'; location_id: number }
  | { kind: 'exceeds'; paid_cents: number; refunded_cents: number }
  | { kind: 'ticketMismatch' }
  | { kind: 'ticketNotApproved'; ticket_status: string }
  | { kind: 'ticketExceeds'; requested_cents: number; refunded_cents: number };

/** Tickets that take no refund any more, in words (an open ticket is told to be approved first). */
const TICKET_CLOSED: Record<string, (ticketId: number) => string> = {
  refunded: (ticketId) => `Ticket ${ticketId} is refunded in full; it takes no more refunds.`,
  rejected: (ticketId) => `Ticket ${ticketId} was rejected; it takes no refund.`,
};

/** The request a key stands for: same payment, amount, reason and ticket → same hash. */
export function refundRequestHash(transactionId: number, input: RefundInput): string {
  const canonical = JSON.stringify([transactionId, input.amount_cents, input.reason, input.ticket_id ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** A scope as refund_payment takes it: NULL for every location. */
const locationsParam = (scope: LocationScope) => (scope.all ? null : scope.ids);

/**
 * Refunds part or all of a payment, once per idempotency key (docs/decisions/0073-refunds-one-lock-per-payment.md).
 *
 * One call of refund_payment (migration 015), one statement and so one transaction: lock the payment row
 * (SELECT … FOR UPDATE; concurrent refunds of one payment queue there), answer a key already taken from what it
 * kept, check the amount against paid − already refunded as it is under the lock, the caller's locations and the
 * ticket, claim the key (a concurrent request with the same key waits on its unique index until this one ends), then
 * write the refund, the payment's refunded amount and status, the ticket's status, the audit rows and the answer kept
 * for the key. A refusal is decided before anything is written.
 *
 * `viewScope` decides between 404 (the payment is hidden from this user) and 403 (visible, but outside
 * `refundScope`): the caller's refund-portal view and edit locations.
 */
export async function refundPayment(
  db: Queryable,
  request: {
    actor: Actor;
    key: string;
    transactionId: number;
    input: RefundInput;
    viewScope: LocationScope;
    refundScope: LocationScope;
  },
): Promise<RefundOutcome> {
  const { actor, key, transactionId, input } = request;
  const { rows } = await db.query<{ outcome: Answer }>(
    'SELECT refund_payment($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS outcome',
    [
      actor.userId,
      actor.email,
      key,
      refundRequestHash(transactionId, input),
      transactionId,
      input.amount_cents,
      input.reason,
      input.ticket_id ?? null,
      locationsParam(request.viewScope),
      locationsParam(request.refundScope),
    ],
    { prepare: 'refund_payment' },
  );
  const answer = rows[0]!.outcome;
  switch (answer.kind) {
    case 'done':
    case 'replayed':
      return { kind: 'refunded', result: answer.result, replayed: answer.kind === 'replayed' };
    case 'keyReused':
    case 'notFound':
      return answer;
    case 'forbidden':
      return { kind: 'forbidden', locationId: answer.location_id };
    case 'exceeds':
      return { kind: 'exceeds', paidCents: answer.paid_cents, refundedCents: answer.refunded_cents };
    case 'ticketMismatch':
      return {
        kind: 'ticket',
        field: 'ticket_id',
        message: `Ticket ${input.ticket_id} is not about transaction ${transactionId}.`,
      };
    case 'ticketNotApproved':
      return {
        kind: 'ticket',
        field: 'ticket_id',
        message:
          TICKET_CLOSED[answer.ticket_status]?.(input.ticket_id!) ??
          `Ticket ${input.ticket_id} is ${answer.ticket_status}; approve it before refunding.`,
      };
    case 'ticketExceeds':
      return {
        kind: 'ticketExceeds',
        ticketId: input.ticket_id!,
        requestedCents: answer.requested_cents,
        refundedCents: answer.refunded_cents,
      };
  }
}
