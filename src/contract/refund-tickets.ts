import * as z from 'zod/mini';
import { canonicalIdParam, MAX_BIGINT_ID } from './ids';
import { pagedSchema } from './lists';
import { TICKET_STATUSES } from './refund-ticket-search';
import { refundAmountField, refundReasonField } from './refunds';
import { transactionDetailSchema } from './transactions';

/** Refund tickets (issue 12): a parker's or staff member's request about one payment, decided and refunded in the portal. */
export { TICKET_SORT_KEYS, TICKET_STATUSES, ticketListQuerySchema, type TicketListQuery, type TicketStatus } from './refund-ticket-search';
export const REFUND_TICKETS_PATH = '/refund-tickets';
export const REFUND_TICKETS_EXPORT_PATH = '/refund-tickets/export';

const positiveId = z.int().check(z.positive());
const cents = z.int().check(z.nonnegative());

export const ticketRowSchema = z.object({
  ticket_id: positiveId,
  transaction_id: positiveId,
  location_id: positiveId,
  location_name: z.string(),
  time_zone: z.string(),
  license_plate: z.string(),
  status: z.enum(TICKET_STATUSES),
  amount_requested_cents: cents,
  reason: z.string(),
  created_at: z.string(),
  /** E-mail of the staff member who opened it; null for tickets from elsewhere (seeded, imported). */
  requester: z.nullable(z.string()),
  version: positiveId,
  updated_at: z.string(),
});
export type TicketRow = z.infer<typeof ticketRowSchema>;

export const ticketNoteSchema = z.object({
  note_id: positiveId,
  body: z.string(),
  created_at: z.string(),
  created_by: z.nullable(z.string()),
});
export const ticketDetailSchema = z.object({
  ...ticketRowSchema.shape,
  decision_reason: z.nullable(z.string()),
  /** What refunds made from this ticket sum to; it takes refunds while approved, up to amount_requested_cents. */
  refunded_cents: cents,
  notes: z.array(ticketNoteSchema),
  /** The payment with its refunds (all of them, from this ticket or not). */
  transaction: transactionDetailSchema,
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export const ticketPageSchema = pagedSchema(ticketRowSchema);
export const ticketParamsSchema = z.object({ ticketId: canonicalIdParam(MAX_BIGINT_ID) });

export const ticketCreateSchema = z.strictObject({
  transaction_id: z.int('The transaction must be a transaction number.').check(
    z.positive('The transaction must be a transaction number.'),
    z.lte(MAX_BIGINT_ID, 'The transaction must be a transaction number.'),
  ),
  amount_cents: refundAmountField,
  reason: refundReasonField,
});
export type TicketCreate = z.infer<typeof ticketCreateSchema>;

export const ticketNoteInputSchema = z.strictObject({
  body: z.pipe(
    z.string('Write the note.'),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.minLength(1, 'Write the note.'), z.maxLength(2000, 'A note must be at most 2,000 characters.')),
    ),
  ),
});

export const TICKET_DECISIONS = ['approve', 'reject'] as const;
export const ticketDecisionSchema = z.strictObject({
  decision: z.enum(TICKET_DECISIONS, 'Choose approve or reject.'),
  reason: z.pipe(
    z.string('Give the reason for the decision.'),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.minLength(1, 'Give the reason for the decision.'), z.maxLength(500, 'The reason must be at most 500 characters.')),
    ),
  ),
  version: z.int('The version must be a whole number.').check(z.positive('The version must be positive.')),
});
export type TicketDecision = z.infer<typeof ticketDecisionSchema>;
