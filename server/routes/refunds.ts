import { z } from '@hono/zod-openapi';
import { idempotencyKeySchema, refundInputSchema, refundResultSchema, type RefundResult } from '../../src/contract/refunds';
import { TRANSACTIONS_PATH, transactionParamsSchema } from '../../src/contract/transactions';
import { refundPayment, type RefundOutcome } from '../db/refunds';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { requestSchema } from '../http/openapi-schemas';
import { conflict, fieldProblems, ok, refused, type Outcome } from '../http/outcome';
import { serverSection } from '../http/section-kit';
import { paymentMissing } from './transactions';

const dollars = (amountCents: number) => `$${Math.floor(amountCents / 100).toLocaleString('en-US')}.${String(amountCents % 100).padStart(2, '0')}`;

/** Header names arrive lower-cased from Hono's header validator. */
export const refundHeadersSchema = z.object({ 'idempotency-key': requestSchema(idempotencyKeySchema) });

/** The refund's outcome in the words of the API; every refusal was decided before anything was written. */
function refunded(transactionId: number, outcome: RefundOutcome): Outcome<RefundResult> {
  switch (outcome.kind) {
    case 'refunded':
      return ok(outcome.result, outcome.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
    case 'keyReused':
      return conflict(
        'This Idempotency-Key was already used for a different refund. Nothing was refunded; confirm again to send a new request.',
      );
    case 'notFound':
      return paymentMissing(transactionId);
    case 'forbidden':
      return refused(`You do not have permission to refund payments at location ${outcome.locationId}.`);
    case 'exceeds': {
      const left = outcome.paidCents - outcome.refundedCents;
      const message =
        left === 0
          ? `Transaction ${transactionId} was already refunded in full (${dollars(outcome.paidCents)}); nothing is left to refund.`
          : `The amount is more than what is left to refund: ${dollars(left)} of ${dollars(outcome.paidCents)} paid.`;
      return fieldProblems({ amount_cents: message });
    }
    case 'ticket':
      return fieldProblems({ [outcome.field]: outcome.message });
    case 'ticketExceeds': {
      const left = dollars(outcome.requestedCents - outcome.refundedCents);
      const asked = dollars(outcome.requestedCents);
      return fieldProblems({
        amount_cents: `The amount is more than ticket ${outcome.ticketId} still asks for: ${left} of the ${asked} it asked for.`,
      });
    }
  }
}

export function registerRefundRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'refunds', feature: 'rp', records: 'payments' });

  section.route({
    method: 'post',
    path: `${TRANSACTIONS_PATH}/{transactionId}/refunds`,
    summary:
      'Refunds part or all of a payment (refund-portal edit there), once per Idempotency-Key: the same key and body answer the first result again, another body 409',
    // Without edit anywhere there is nothing to look up; with it, the payment's own location decides (under its lock).
    access: { level: 'edit', refusal: 'You do not have permission to refund payments.' },
    params: transactionParamsSchema,
    headers: refundHeadersSchema,
    body: refundInputSchema,
    data: refundResultSchema,
    answers: 'The refund and the payment after it',
    errors: [404, 409],
    // Not `writes`: refund_payment is one statement that locks the payment, checks the amount and claims the key in
    // its own transaction (server/db/refunds.ts), so a retry never refunds twice; a second transaction adds nothing.
    handle: async ({ db, actor, params: { transactionId }, headers, body, scope }) =>
      refunded(
        transactionId,
        await refundPayment(db, {
          actor,
          key: headers['idempotency-key'],
          transactionId,
          input: body,
          viewScope: scope('view'),
          refundScope: scope('edit'),
        }),
      ),
  });
}
