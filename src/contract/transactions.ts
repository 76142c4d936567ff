import * as z from 'zod/mini';
import { canonicalIdParam, MAX_BIGINT_ID } from './ids';
import { locationRefSchema } from '../permissions/permissions-object';
import { directionParam, pagedSchema, pageParam, pageSizeParam, textFilter } from './lists';

/** Payments as the transaction search and detail show them. Money is in cents (integer minor units), never floats. */
export const PAYMENT_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_METHODS = ['card', 'apple_pay', 'google_pay', 'cash', 'account'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

const cents = z.int().check(z.nonnegative());
const positiveId = z.int().check(z.positive());

export const transactionRowSchema = z.object({
  transaction_id: positiveId,
  location_id: positiveId,
  location_name: z.string(),
  time_zone: z.string(),
  license_plate: z.string(),
  /** The stay starts when it is paid. */
  payment_time: z.string(),
  expiry_date_time: z.string(),
  amount_cents: cents,
  fee_cents: cents,
  refunded_cents: cents,
  payment_method: z.enum(PAYMENT_METHODS),
  status: z.enum(PAYMENT_STATUSES),
  /** Only the last four digits ever leave the server. */
  phone_last4: z.nullable(z.string()),
});
export type TransactionRow = z.infer<typeof transactionRowSchema>;

export const refundSummarySchema = z.object({
  refund_id: positiveId,
  amount_cents: cents,
  reason: z.string(),
  created_at: z.string(),
  created_by: z.nullable(z.string()),
});

export const transactionDetailSchema = z.object({
  ...transactionRowSchema.shape,
  processor_reference: z.nullable(z.string()),
  /** The processor's settlement day (YYYY-MM-DD), null until settled. */
  settled_date: z.nullable(z.string()),
  refunds: z.array(refundSummarySchema),
});
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

export const TRANSACTIONS_PATH = '/transactions';
export const TRANSACTIONS_EXPORT_PATH = '/transactions/export';
export const TRANSACTION_SORT_KEYS = ['payment_time', 'amount', 'license_plate', 'transaction_id'] as const;
export type TransactionSortKey = (typeof TRANSACTION_SORT_KEYS)[number];

const optionalMatch = (pattern: RegExp, message: string, maxLength: number) =>
  z.optional(
    z.pipe(textFilter(maxLength).def.innerType, z.string().check(z.refine((value) => value === '' || pattern.test(value), message))),
  );

/**
 * The search of /refund-portal/transactions: every filter optional and combined with AND. Dates are calendar days
 * in each payment's location's time zone, both ends included.
 */
export const transactionSearchSchema = z.object({
  plate: optionalMatch(/^[A-Za-z0-9 -]{2,16}$/, 'must be 2 to 16 letters or digits', 16),
  phone: optionalMatch(/^\d{4}$/, 'must be the last 4 digits of the phone', 4),
  transactionId: optionalMatch(/^[1-9]\d{0,15}$/, 'must be a transaction number', 16),
  amount: optionalMatch(/^\d{1,8}(\.\d{1,2})?$/, 'must be an amount like 12.50', 11),
  from: optionalMatch(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)', 10),
  to: optionalMatch(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)', 10),
  locationId: optionalMatch(/^[1-9]\d{0,9}$/, 'must be a location id', 10),
  status: z.optional(z.enum(PAYMENT_STATUSES)),
  sort: z.optional(z.enum(TRANSACTION_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type TransactionSearch = z.infer<typeof transactionSearchSchema>;
export const transactionPageSchema = pagedSchema(transactionRowSchema);
export const TRANSACTION_LOCATIONS_PATH = `${TRANSACTIONS_PATH}/locations`;
/** The locations whose payments the user may search: the search form's location choice. */
export const transactionLocationsSchema = z.array(locationRefSchema);
export const transactionParamsSchema = z.object({ transactionId: canonicalIdParam(MAX_BIGINT_ID) });

/** "12.5" → 1250 cents, exactly (no floating point). */
export function parseAmountToCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A real calendar day ("2026-02-30" is not). */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
