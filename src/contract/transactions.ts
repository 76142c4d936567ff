import * as z from 'zod/mini';
import { locationRefSchema } from '../permissions/permissions-object';
import { pagedSchema } from './lists';
import { PAYMENT_STATUSES } from './transaction-search';

// The search, its sort keys and the path parameter live in transaction-search.ts: route guards import them, and what
// they import joins the entry chunk that /login and /list pay for (docs/sections.md, step 2 of Lists).
export {
  PAYMENT_STATUSES,
  TRANSACTION_SORT_KEYS,
  transactionParamsSchema,
  transactionSearchSchema,
  type PaymentStatus,
  type TransactionSearch,
  type TransactionSortKey,
} from './transaction-search';

/** Payments as the transaction search and detail show them. Money is in cents (integer minor units), never floats. */
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

export const transactionPageSchema = pagedSchema(transactionRowSchema);
export const TRANSACTION_LOCATIONS_PATH = `${TRANSACTIONS_PATH}/locations`;
/** The locations whose payments the user may search: the search form's location choice. */
export const transactionLocationsSchema = z.array(locationRefSchema);

/** "12.5" → 1250 cents, exactly (no floating point). */
export function parseAmountToCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A real calendar day ("2026-02-30" is not): src/contract/calendar.ts reads every date of the contract. */
export { isCalendarDate } from './calendar';
