import * as z from 'zod/mini';
import { canonicalIdParam, MAX_BIGINT_ID } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/** The transaction search of the URL and the API, apart from the rest of the contract (entry chunk). */
export const PAYMENT_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

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

export const transactionParamsSchema = z.object({ transactionId: canonicalIdParam(MAX_BIGINT_ID) });
