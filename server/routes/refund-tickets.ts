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
  type TicketDetail,
  type TicketRow,
} from '../../src/contract/refund-tickets';
import type { Queryable } from '../db/db';
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
import type { ApiApp, RouteDeps } from '../http/api-app';
import { dayRangeProblem } from '../http/day-range';
import { changeAuthor, conflict, fieldProblems, notFound, ok, refused, type Outcome } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';
import { paymentMissing } from './transactions';

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

function written(id: number, result: TicketWriteResult): Outcome<TicketDetail> {
  switch (result.kind) {
    case 'ok':
      return ok(result.ticket);
    case 'notFound':
      return paymentMissing(id);
    case 'forbidden':
      return refused(`You do not have permission to open refund tickets at location ${result.locationId}.`);
    case 'exceeds':
      return fieldProblems({
        amount_cents: `The amount is more than what is left to refund: $${dollars(result.paidCents - result.refundedCents)} of $${dollars(result.paidCents)} paid.`,
      });
    case 'decided':
      return conflict(`Ticket ${id} is already ${result.status}; only open tickets are approved or rejected.`);
    case 'conflict':
      return conflict(
        `Ticket ${id} was changed by ${changeAuthor(result.conflict)} after you opened it. Reload to see it; nothing was saved.`,
        result.conflict,
      );
  }
}

const missing = (ticketId: number) => notFound(`Ticket ${ticketId} was not found among the tickets of your locations.`);

type Request = Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'lacking'> & { db: Queryable };

/** The ticket's location when the user may view it; undefined (404) when it is missing or not at their locations. */
async function visibleAt({ db, lacking }: Request, ticketId: number): Promise<number | undefined> {
  const locationId = await ticketLocation(db, ticketId);
  return locationId !== undefined && lacking('view', [locationId]).length === 0 ? locationId : undefined;
}

export function registerRefundTicketRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'refund tickets', feature: 'rp', records: 'refund tickets' });

  section.list({
    path: REFUND_TICKETS_PATH,
    summary: "Refund tickets at the user's refund-portal locations, filtered, sorted and paged on the server",
    query: ticketListQuerySchema,
    page: ticketPageSchema,
    locationFilter: 'the refund tickets',
    problem: dayRangeProblem,
    read: ({ db, scope, query }, window) => listTicketsPage(db, scope(), query, window),
    csv: {
      path: REFUND_TICKETS_EXPORT_PATH,
      summary: 'Every ticket the list shows for these filters, as CSV (streamed)',
      name: 'refund-tickets',
      header: CSV_HEADER,
      batches: ({ db, scope, query }) => ticketBatches(db, scope(), query),
      row: csvRow,
    },
  });

  section.route({
    method: 'post',
    path: REFUND_TICKETS_PATH,
    summary: "Opens a refund ticket about a payment (refund-portal add at the payment's location)",
    access: { level: 'add', refusal: 'You do not have permission to open refund tickets.' },
    body: ticketCreateSchema,
    data: ticketDetailSchema,
    answers: 'The new ticket',
    errors: [404],
    writes: true,
    handle: async ({ db, actor, scope, lacking, body }) =>
      written(
        body.transaction_id,
        await createTicket(db, actor, scope(), (locationId) => lacking('add', [locationId]).length === 0, body),
      ),
  });

  section.route({
    method: 'get',
    path: `${REFUND_TICKETS_PATH}/{ticketId}`,
    summary: 'One ticket with its payment, earlier refunds and notes; 404 alike for a missing one and one outside your locations',
    access: { level: 'view' },
    params: ticketParamsSchema,
    data: ticketDetailSchema,
    answers: 'The ticket',
    errors: [404],
    handle: async (request) => {
      const { ticketId } = request.params;
      const ticket = (await visibleAt(request, ticketId)) === undefined ? undefined : await findTicket(request.db, request.scope(), ticketId);
      return ticket ? ok(ticket) : missing(ticketId);
    },
  });

  section.history({
    path: `${REFUND_TICKETS_PATH}/{ticketId}/history`,
    summary: "The ticket's audit trail (opened, notes, decision, refund), newest first",
    params: ticketParamsSchema,
    errors: [404],
    trail: ({ ticketId }) => ({ entity: 'refund_ticket', id: ticketId }),
    hidden: async (request) =>
      (await visibleAt(request, request.params.ticketId)) === undefined ? missing(request.params.ticketId) : null,
  });

  section.route({
    method: 'post',
    path: `${REFUND_TICKETS_PATH}/{ticketId}/notes`,
    summary: 'Adds a note to a ticket (refund-portal view there)',
    access: { level: 'view' },
    params: ticketParamsSchema,
    body: ticketNoteInputSchema,
    data: ticketDetailSchema,
    answers: 'The ticket with the note',
    errors: [404],
    writes: true,
    handle: async (request) => {
      const { ticketId } = request.params;
      if ((await visibleAt(request, ticketId)) === undefined) return missing(ticketId);
      return written(ticketId, await addTicketNote(request.db, request.actor, request.scope(), ticketId, request.body.body));
    },
  });

  section.route({
    method: 'post',
    path: `${REFUND_TICKETS_PATH}/{ticketId}/decision`,
    summary: 'Approves or rejects an open ticket with a reason, from `version` (refund-portal edit there)',
    access: { level: 'edit', refusal: 'You do not have permission to decide refund tickets.' },
    params: ticketParamsSchema,
    body: ticketDecisionSchema,
    data: ticketDetailSchema,
    answers: 'The decided ticket',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { ticketId } = request.params;
      const locationId = await visibleAt(request, ticketId);
      if (locationId === undefined) return missing(ticketId);
      if (request.lacking('edit', [locationId]).length) {
        return refused(`You do not have permission to decide refund tickets at location ${locationId}.`);
      }
      return written(ticketId, await decideTicket(request.db, request.actor, request.scope(), ticketId, request.body));
    },
  });
}
