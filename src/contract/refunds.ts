import * as z from 'zod/mini';
import { dollarsField } from './money-text';
import { PAYMENT_STATUSES } from './transactions';

/**
 * Refunds (issue 12): POST /transactions/{transactionId}/refunds with an `Idempotency-Key` header. Money is in whole
 * cents; the server checks the amount against what was paid less what was already refunded, under a lock on the
 * payment, so that no retry or race refunds twice or beyond the payment.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The console sends a UUID; anything printable up to this length is accepted, as payment processors do. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const MAX_REFUND_CENTS = 99_999_999;

export const refundsPath = (transactionId: number) => `/transactions/${transactionId}/refunds`;

export const refundReasonField = z.pipe(
  z.string('Enter the reason for the refund.'),
  z.pipe(
    z.transform((value: string) => value.trim()),
    z.string().check(
      z.minLength(1, 'Enter the reason for the refund.'),
      z.maxLength(500, 'The reason must be at most 500 characters.'),
    ),
  ),
);

export const refundAmountField = z
  .int('The amount must be a whole number of cents.')
  .check(
    z.positive('The amount must be more than zero.'),
    z.lte(MAX_REFUND_CENTS, 'The amount is larger than any payment.'),
  );

export const refundInputSchema = z.strictObject({
  amount_cents: refundAmountField,
  reason: refundReasonField,
  /** The ticket this refund settles, when it is made from one (it must be about the same payment). */
  ticket_id: z.optional(z.int('The ticket must be a ticket number.').check(z.positive('The ticket must be a ticket number.'))),
});
export type RefundInput = z.infer<typeof refundInputSchema>;

/** An Idempotency-Key header; `missing` says what one key stands for (a refund, a redemption). */
export function idempotencyKeyOf(missing: string) {
  return z.string().check(
    z.minLength(1, missing),
    z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH, `The Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`),
    z.regex(/^[\x21-\x7e]+$/, 'The Idempotency-Key must be printable ASCII without spaces.'),
  );
}

export const idempotencyKeySchema = idempotencyKeyOf('Send an Idempotency-Key header (one per refund you confirm).');

/** What a refund answers (and what a retry with the same key answers again). */
export const refundResultSchema = z.object({
  refund_id: z.int().check(z.positive()),
  transaction_id: z.int().check(z.positive()),
  amount_cents: z.int().check(z.positive()),
  reason: z.string(),
  ticket_id: z.nullable(z.int().check(z.positive())),
  created_at: z.string(),
  /** The payment after this refund. */
  payment_amount_cents: z.int().check(z.nonnegative()),
  refunded_cents: z.int().check(z.nonnegative()),
  remaining_cents: z.int().check(z.nonnegative()),
  status: z.enum(PAYMENT_STATUSES),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** The amount as a person types it (dollars and cents), for the refund and ticket forms; sent as `amount_cents`. */
export const refundFormSchema = z.object({
  amount: dollarsField({ label: 'amount', maxCents: MAX_REFUND_CENTS }),
  reason: refundReasonField,
});
export type RefundFormValues = z.input<typeof refundFormSchema>;
