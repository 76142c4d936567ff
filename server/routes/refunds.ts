import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { idempotencyKeySchema, refundInputSchema, refundResultSchema } from '../../src/contract/refunds';
import { TRANSACTIONS_PATH, transactionParamsSchema } from '../../src/contract/transactions';
import { hasPermission } from '../../src/permissions/rules';
import { refundPayment, type RefundOutcome } from '../db/refunds';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure, invalidFields } from '../http/responses';
import { locationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });
const dollars = (amountCents: number) => `$${Math.floor(amountCents / 100).toLocaleString('en-US')}.${String(amountCents % 100).padStart(2, '0')}`;

/** Header names arrive lower-cased from Hono's header validator. */
export const refundHeadersSchema = z.object({ 'idempotency-key': requestSchema(idempotencyKeySchema) });

function outcomeResponse(c: Context<StaffEnv>, transactionId: number, outcome: RefundOutcome) {
  switch (outcome.kind) {
    case 'refunded':
      if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json({ success: true as const, data: outcome.result }, 200);
    case 'keyReused':
      return c.json(
        failure(
          'This Idempotency-Key was already used for a different refund. Nothing was refunded; confirm again to send a new request.',
        ),
        409,
      );
    case 'notFound':
      return c.json(failure(`Transaction ${transactionId} was not found among the payments of your locations.`), 404);
    case 'forbidden':
      return c.json(failure(`You do not have permission to refund payments at location ${outcome.locationId}.`), 403);
    case 'exceeds': {
      const left = outcome.paidCents - outcome.refundedCents;
      const message =
        left === 0
          ? `Transaction ${transactionId} was already refunded in full (${dollars(outcome.paidCents)}); nothing is left to refund.`
          : `The amount is more than what is left to refund: ${dollars(left)} of ${dollars(outcome.paidCents)} paid.`;
      return c.json(invalidFields({ amount_cents: message }), 400);
    }
    case 'ticket':
      return c.json(invalidFields({ [outcome.field]: outcome.message }), 400);
    case 'ticketExceeds': {
      const left = dollars(outcome.requestedCents - outcome.refundedCents);
      const asked = dollars(outcome.requestedCents);
      const message = `The amount is more than ticket ${outcome.ticketId} still asks for: ${left} of the ${asked} it asked for.`;
      return c.json(invalidFields({ amount_cents: message }), 400);
    }
  }
}

export function registerRefundRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);

  const refund = createRoute({
    method: 'post',
    path: `${TRANSACTIONS_PATH}/{transactionId}/refunds`,
    tags: ['refunds'],
    summary:
      'Refunds part or all of a payment (refund-portal edit there), once per Idempotency-Key: the same key and body answer the first result again, another body 409',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(transactionParamsSchema),
      headers: refundHeadersSchema,
      body: { required: true, content: json(requestSchema(refundInputSchema)) },
    },
    responses: {
      200: { description: 'The refund and the payment after it', content: json(responseSchema(successEnvelope(refundResultSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(refund, async (c) => {
    const staff = c.get('staff');
    // Without edit anywhere there is nothing to look up; with it, the payment's own location decides (in the transaction).
    if (!hasPermission(staff.record, 'rp', 'edit')) {
      return c.json(failure('You do not have permission to refund payments.'), 403);
    }
    const { transactionId } = c.req.valid('param');
    const outcome = await refundPayment(deps.db, {
      actor: { userId: staff.userId, email: staff.email },
      key: c.req.valid('header')['idempotency-key'],
      transactionId,
      input: c.req.valid('json'),
      viewScope: locationScope(staff.record, 'rp', 'view'),
      refundScope: locationScope(staff.record, 'rp', 'edit'),
    });
    return outcomeResponse(c, transactionId, outcome) as never;
  });
}
