import {
  TRANSACTION_LOCATIONS_PATH,
  transactionLocationsSchema,
  TRANSACTIONS_EXPORT_PATH,
  TRANSACTIONS_PATH,
  transactionDetailSchema,
  transactionPageSchema,
  transactionParamsSchema,
  transactionSearchSchema,
  type TransactionRow,
} from '../../src/contract/transactions';
import { listLocationRefsIn } from '../db/locations';
import { findTransaction, searchTransactions, transactionBatches } from '../db/transactions';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { dayRangeProblem } from '../http/day-range';
import { notFound, ok } from '../http/outcome';
import { serverSection } from '../http/section-kit';

const CSV_HEADER = [
  'Transaction ID',
  'Location',
  'License plate',
  'Paid at (UTC)',
  'Expires at (UTC)',
  'Amount',
  'Fee',
  'Refunded',
  'Method',
  'Status',
  'Phone (last 4)',
];
const dollars = (amountCents: number) => `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
const csvRow = (row: TransactionRow) => [
  row.transaction_id,
  row.location_name,
  row.license_plate,
  row.payment_time,
  row.expiry_date_time,
  dollars(row.amount_cents),
  dollars(row.fee_cents),
  dollars(row.refunded_cents),
  row.payment_method,
  row.status,
  row.phone_last4,
];

/** The 404 for a payment missing or outside the user's locations, alike so a hidden payment is not revealed. */
export const paymentMissing = (transactionId: number) =>
  notFound(`Transaction ${transactionId} was not found among the payments of your locations.`);

export function registerTransactionRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'transactions', feature: 'rp', records: 'transactions' });

  section.list({
    path: TRANSACTIONS_PATH,
    summary: "Payments at the user's refund-portal locations, filtered, sorted and paged on the server",
    query: transactionSearchSchema,
    page: transactionPageSchema,
    locationFilter: 'the payments',
    problem: dayRangeProblem,
    read: ({ db, scope, query }, window) => searchTransactions(db, scope(), query, window),
    csv: {
      path: TRANSACTIONS_EXPORT_PATH,
      summary: 'Every payment the search finds, as CSV (streamed)',
      name: 'transactions',
      header: CSV_HEADER,
      batches: ({ db, scope, query }) => transactionBatches(db, scope(), query),
      row: csvRow,
    },
  });

  section.route({
    method: 'get',
    path: TRANSACTION_LOCATIONS_PATH,
    summary: "The locations whose payments the user may search (the search form's location choice)",
    access: { level: 'view' },
    data: transactionLocationsSchema,
    answers: 'Locations by name',
    handle: async ({ db, scope }) => ok(await listLocationRefsIn(db, scope())),
  });

  section.route({
    method: 'get',
    path: `${TRANSACTIONS_PATH}/{transactionId}`,
    summary: 'One payment with its refunds; 404 alike for a missing one and one outside your locations',
    access: { level: 'view' },
    params: transactionParamsSchema,
    data: transactionDetailSchema,
    answers: 'The payment',
    errors: [404],
    handle: async ({ db, scope, params: { transactionId } }) => {
      const payment = await findTransaction(db, scope(), transactionId);
      return payment ? ok(payment) : paymentMissing(transactionId);
    },
  });

  section.history({
    path: `${TRANSACTIONS_PATH}/{transactionId}/history`,
    summary: "The payment's audit trail (refunds and other changes), newest first",
    params: transactionParamsSchema,
    errors: [404],
    trail: ({ transactionId }) => ({ entity: 'transaction', id: transactionId }),
    // The same scope check as the detail, so History cannot reveal payments the detail hides.
    hidden: async ({ db, scope, params: { transactionId } }) =>
      (await findTransaction(db, scope(), transactionId)) ? null : paymentMissing(transactionId),
  });
}
