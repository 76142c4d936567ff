import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  isCalendarDate,
  TRANSACTION_LOCATIONS_PATH,
  transactionLocationsSchema,
  TRANSACTIONS_EXPORT_PATH,
  TRANSACTIONS_PATH,
  transactionDetailSchema,
  transactionPageSchema,
  transactionParamsSchema,
  transactionSearchSchema,
  type TransactionRow,
  type TransactionSearch,
} from '../../src/contract/transactions';
import { hasPermission } from '../../src/permissions/rules';
import { listHistory } from '../db/audit';
import { listLocationRefsIn } from '../db/locations';
import { pageBeyondLimit } from '../db/paging';
import { findTransaction, searchTransactions, transactionBatches } from '../db/transactions';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure } from '../http/responses';
import { locationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';


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

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });
const NO_PERMISSION = 'You do not have permission to view transactions.';

/** What the schema cannot say alone: real calendar days, in order. */
function dateRangeProblem(search: TransactionSearch): string | null {
  for (const field of ['from', 'to'] as const) {
    const value = search[field];
    if (value && !isCalendarDate(value)) return `Invalid query: ${field}: ${value} is not a calendar date.`;
  }
  if (search.from && search.to && search.from > search.to) {
    return `Invalid query: from (${search.from}) is after to (${search.to}).`;
  }
  return null;
}

export function registerTransactionRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  /** Lists filtered by `?locationId=`: refused (403) outside the user's rp locations, before anything is read. */
  const listSession = requireStaffSession(deps, { locationFilter: { feature: 'rp', records: 'the payments' } });
  const mayView = (c: Context<StaffEnv>) => hasPermission(c.get('staff').record, 'rp', 'view');
  const scopeOf = (c: Context<StaffEnv>) => locationScope(c.get('staff').record, 'rp');

  const search = createRoute({
    method: 'get',
    path: TRANSACTIONS_PATH,
    tags: ['transactions'],
    summary: "Payments at the user's refund-portal locations, filtered, sorted and paged on the server",
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(transactionSearchSchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(transactionPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(search, async (c) => {
    if (!mayView(c)) return c.json(failure(NO_PERMISSION), 403);
    const query = c.req.valid('query');
    const window = listWindow(query);
    const problem = dateRangeProblem(query) ?? pageBeyondLimit(window);
    if (problem) return c.json(failure(problem), 400);
    return c.json({ success: true as const, data: await searchTransactions(deps.db, scopeOf(c), query, window) }, 200);
  });

  const exportCsv = createRoute({
    method: 'get',
    path: TRANSACTIONS_EXPORT_PATH,
    tags: ['transactions'],
    summary: 'Every payment the search finds, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(transactionSearchSchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    if (!mayView(c)) return c.json(failure(NO_PERMISSION), 403);
    const query = c.req.valid('query');
    const problem = dateRangeProblem(query);
    if (problem) return c.json(failure(problem), 400);
    const batches = transactionBatches(deps.db, scopeOf(c), query);
    return csvResponse(c, {
      fileName: csvFileName('transactions', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const locations = createRoute({
    method: 'get',
    path: TRANSACTION_LOCATIONS_PATH,
    tags: ['transactions'],
    summary: "The locations whose payments the user may search (the search form's location choice)",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'Locations by name', content: json(responseSchema(successEnvelope(transactionLocationsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(locations, async (c) => {
    if (!mayView(c)) return c.json(failure(NO_PERMISSION), 403);
    return c.json({ success: true as const, data: await listLocationRefsIn(deps.db, scopeOf(c)) }, 200);
  });

  const notFound = (c: Context, transactionId: number) =>
    c.json(failure(`Transaction ${transactionId} was not found among the payments of your locations.`), 404);

  const detail = createRoute({
    method: 'get',
    path: `${TRANSACTIONS_PATH}/{transactionId}`,
    tags: ['transactions'],
    summary: 'One payment with its refunds; 404 alike for a missing one and one outside your locations',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(transactionParamsSchema) },
    responses: {
      200: { description: 'The payment', content: json(responseSchema(successEnvelope(transactionDetailSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    if (!mayView(c)) return c.json(failure(NO_PERMISSION), 403);
    const { transactionId } = c.req.valid('param');
    const payment = await findTransaction(deps.db, scopeOf(c), transactionId);
    if (!payment) return notFound(c, transactionId);
    return c.json({ success: true as const, data: payment }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${TRANSACTIONS_PATH}/{transactionId}/history`,
    tags: ['transactions'],
    summary: "The payment's audit trail (refunds and other changes), newest first",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(transactionParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(history, async (c) => {
    if (!mayView(c)) return c.json(failure(NO_PERMISSION), 403);
    const { transactionId } = c.req.valid('param');
    // The same scope check as the detail, so History cannot reveal payments the detail hides.
    if (!(await findTransaction(deps.db, scopeOf(c), transactionId))) return notFound(c, transactionId);
    return c.json({ success: true as const, data: await listHistory(deps.db, 'transaction', transactionId) }, 200);
  });
}
