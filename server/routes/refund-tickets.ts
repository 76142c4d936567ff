import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  REFUND_TICKETS_EXPORT_PATH,
  REFUND_TICKETS_PATH,
  ticketCreateSchema,
  ticketDecisionSchema,
  ticketDetailSchema,
  ticketListQuerySchema,
  ticketNoteInputSchema,
  ticketPageSchema,
  ticketParamsSchema,
  type TicketListQuery,
  type TicketRow,
} from '../../src/contract/refund-tickets';
import { isCalendarDate } from '../../src/contract/transactions';
import { hasPermission } from '../../src/permissions/rules';
import { listHistory } from '../db/audit';
import { pageBeyondLimit } from '../db/paging';
import {
  addTicketNote,
  createTicket,
  decideTicket,
  findTicket,
  listTicketsPage,
  ticketBatches,
  ticketLocation,
  type TicketWriteResult,
} from '../db/refund-tickets';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { locationScope, mayAt } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });
const dollars = (amountCents: number) => `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
const CSV_HEADER = ['Ticket ID', 'Status', 'Location', 'Created (UTC)', 'Requester', 'Amount asked', 'Transaction ID', 'License plate', 'Reason'];
const csvRow = (row: TicketRow) => [
  row.ticket_id,
  row.status,
  row.location_name,
  row.created_at,
  row.requester,
  dollars(row.amount_requested_cents),
  row.transaction_id,
  row.license_plate,
  row.reason,
];
const NO_VIEW = 'You do not have permission to view refund tickets.';

function dayProblem(query: TicketListQuery): string | null {
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value && !isCalendarDate(value)) return `Invalid query: ${field}: ${value} is not a calendar date.`;
  }
  if (query.from && query.to && query.from > query.to) return `Invalid query: from (${query.from}) is after to (${query.to}).`;
  return null;
}

function writeResponse(c: Context<StaffEnv>, id: number, result: TicketWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.ticket }, 200);
    case 'notFound':
      return c.json(failure(`Transaction ${id} was not found among the payments of your locations.`), 404);
    case 'forbidden':
      return c.json(failure(`You do not have permission to open refund tickets at location ${result.locationId}.`), 403);
    case 'exceeds':
      return c.json(
        invalidFields({
          amount_cents: `The amount is more than what is left to refund: $${dollars(result.paidCents - result.refundedCents)} of $${dollars(result.paidCents)} paid.`,
        }),
        400,
      );
    case 'decided':
      return c.json(failure(`Ticket ${id} is already ${result.status}; only open tickets are approved or rejected.`), 409);
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      return c.json(
        conflictFailure(`Ticket ${id} was changed by ${who}${changedAt ? ` at ${changedAt}` : ''} after you opened it. Reload to see it; nothing was saved.`, result.conflict),
        409,
      );
    }
  }
}

export function registerRefundTicketRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  /** Lists filtered by `?locationId=`: refused (403) outside the user's rp locations, before anything is read. */
  const listSession = requireStaffSession(deps, { locationFilter: { feature: 'rp', records: 'the refund tickets' } });
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });
  const scopeOf = (c: Context<StaffEnv>) => locationScope(c.get('staff').record, 'rp');
  const notFound = (c: Context, ticketId: number) => c.json(failure(`Ticket ${ticketId} was not found among the tickets of your locations.`), 404);
  /** The ticket's location when the user may view it; undefined (404) when it is missing or not at their locations. */
  const visibleAt = async (c: Context<StaffEnv>, ticketId: number) => {
    const locationId = await ticketLocation(deps.db, ticketId);
    return locationId !== undefined && mayAt(c.get('staff').record, 'rp', 'view', locationId) ? locationId : undefined;
  };

  const list = createRoute({
    method: 'get',
    path: REFUND_TICKETS_PATH,
    tags: ['refund tickets'],
    summary: "Refund tickets at the user's refund-portal locations, filtered, sorted and paged on the server",
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(ticketListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(ticketPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    if (!hasPermission(c.get('staff').record, 'rp', 'view')) return c.json(failure(NO_VIEW), 403);
    const query = c.req.valid('query');
    const window = listWindow(query);
    const problem = dayProblem(query) ?? pageBeyondLimit(window);
    if (problem) return c.json(failure(problem), 400);
    return c.json({ success: true as const, data: await listTicketsPage(deps.db, scopeOf(c), query, window) }, 200);
  });

  const exportCsv = createRoute({
    method: 'get',
    path: REFUND_TICKETS_EXPORT_PATH,
    tags: ['refund tickets'],
    summary: 'Every ticket the list shows for these filters, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(ticketListQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    if (!hasPermission(c.get('staff').record, 'rp', 'view')) return c.json(failure(NO_VIEW), 403);
    const query = c.req.valid('query');
    const problem = dayProblem(query);
    if (problem) return c.json(failure(problem), 400);
    const batches = ticketBatches(deps.db, scopeOf(c), query);
    return csvResponse(c, {
      fileName: csvFileName('refund-tickets', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const create = createRoute({
    method: 'post',
    path: REFUND_TICKETS_PATH,
    tags: ['refund tickets'],
    summary: "Opens a refund ticket about a payment (refund-portal add at the payment's location)",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(ticketCreateSchema)) } },
    responses: {
      200: { description: 'The new ticket', content: json(responseSchema(successEnvelope(ticketDetailSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(create, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rp', 'add')) return c.json(failure('You do not have permission to open refund tickets.'), 403);
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) =>
      createTicket(tx, actorOf(c), scopeOf(c), (locationId) => mayAt(record, 'rp', 'add', locationId), input),
    );
    return writeResponse(c, input.transaction_id, result) as never;
  });

  const detail = createRoute({
    method: 'get',
    path: `${REFUND_TICKETS_PATH}/{ticketId}`,
    tags: ['refund tickets'],
    summary: 'One ticket with its payment, earlier refunds and notes; 404 alike for a missing one and one outside your locations',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(ticketParamsSchema) },
    responses: {
      200: { description: 'The ticket', content: json(responseSchema(successEnvelope(ticketDetailSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    if (!hasPermission(c.get('staff').record, 'rp', 'view')) return c.json(failure(NO_VIEW), 403);
    const { ticketId } = c.req.valid('param');
    const ticket = (await visibleAt(c, ticketId)) === undefined ? undefined : await findTicket(deps.db, scopeOf(c), ticketId);
    if (!ticket) return notFound(c, ticketId);
    return c.json({ success: true as const, data: ticket }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${REFUND_TICKETS_PATH}/{ticketId}/history`,
    tags: ['refund tickets'],
    summary: "The ticket's audit trail (opened, notes, decision, refund), newest first",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(ticketParamsSchema) },
    responses: {
      200: { description: 'Who did what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(history, async (c) => {
    if (!hasPermission(c.get('staff').record, 'rp', 'view')) return c.json(failure(NO_VIEW), 403);
    const { ticketId } = c.req.valid('param');
    if ((await visibleAt(c, ticketId)) === undefined) return notFound(c, ticketId);
    return c.json({ success: true as const, data: await listHistory(deps.db, 'refund_ticket', ticketId) }, 200);
  });

  const note = createRoute({
    method: 'post',
    path: `${REFUND_TICKETS_PATH}/{ticketId}/notes`,
    tags: ['refund tickets'],
    summary: 'Adds a note to a ticket (refund-portal view there)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(ticketParamsSchema),
      body: { required: true, content: json(requestSchema(ticketNoteInputSchema)) },
    },
    responses: {
      200: { description: 'The ticket with the note', content: json(responseSchema(successEnvelope(ticketDetailSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(note, async (c) => {
    if (!hasPermission(c.get('staff').record, 'rp', 'view')) return c.json(failure(NO_VIEW), 403);
    const { ticketId } = c.req.valid('param');
    if ((await visibleAt(c, ticketId)) === undefined) return notFound(c, ticketId);
    const { body } = c.req.valid('json');
    const result = await deps.db.transaction((tx) => addTicketNote(tx, actorOf(c), scopeOf(c), ticketId, body));
    return writeResponse(c, ticketId, result) as never;
  });

  const decision = createRoute({
    method: 'post',
    path: `${REFUND_TICKETS_PATH}/{ticketId}/decision`,
    tags: ['refund tickets'],
    summary: 'Approves or rejects an open ticket with a reason, from `version` (refund-portal edit there)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(ticketParamsSchema),
      body: { required: true, content: json(requestSchema(ticketDecisionSchema)) },
    },
    responses: {
      200: { description: 'The decided ticket', content: json(responseSchema(successEnvelope(ticketDetailSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(decision, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rp', 'edit')) return c.json(failure('You do not have permission to decide refund tickets.'), 403);
    const { ticketId } = c.req.valid('param');
    const locationId = await visibleAt(c, ticketId);
    if (locationId === undefined) return notFound(c, ticketId);
    if (!mayAt(record, 'rp', 'edit', locationId)) {
      return c.json(failure(`You do not have permission to decide refund tickets at location ${locationId}.`), 403);
    }
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => decideTicket(tx, actorOf(c), scopeOf(c), ticketId, input));
    return writeResponse(c, ticketId, result) as never;
  });
}
