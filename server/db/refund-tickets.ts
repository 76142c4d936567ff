import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type { TicketCreate, TicketDecision, TicketDetail, TicketListQuery, TicketRow } from '../../src/contract/refund-tickets';
import type { LocationScope } from '../../src/permissions/scope';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { cents, iso, SqlParams } from './sql';
import { findTransaction } from './transactions';

const ROW_COLUMNS = `k.ticket_id::float8 AS ticket_id, k.transaction_id::float8 AS transaction_id, k.location_id,
  l.name AS location_name, l.time_zone, t.license_plate, k.status, ${cents('k.amount_requested')} AS amount_requested_cents,
  k.reason, ${iso('k.created_at')} AS created_at, u.email AS requester, k.version, ${iso('k.updated_at')} AS updated_at`;
const WITH_JOINS = `refund_tickets k JOIN locations l ON l.location_id = k.location_id
  JOIN transactions t ON t.transaction_id = k.transaction_id LEFT JOIN users u ON u.user_id = k.created_by`;

const SORT_EXPRESSIONS = {
  created_at: 'k.created_at',
  amount: 'k.amount_requested',
  status: 'k.status',
  ticket_id: 'k.ticket_id',
} as const;

function filtered(scope: LocationScope, query: TicketListQuery) {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`k.location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (query.status) conditions.push(`k.status = ${params.add(query.status)}`);
  if (query.locationId) conditions.push(`k.location_id = ${params.add(query.locationId)}::int`);
  // Days on each ticket's location's own clock, as the list shows its times (and as the transaction search does).
  // The UTC bounds widened by the widest offsets (−12 h … +14 h) keep the test on created_at sargable.
  if (query.from) {
    const day = params.add(query.from);
    conditions.push(`k.created_at >= ${day}::date::timestamp AT TIME ZONE 'UTC' - interval '14 hours'`);
    conditions.push(`k.created_at >= ${day}::date::timestamp AT TIME ZONE l.time_zone`);
  }
  if (query.to) {
    const day = params.add(query.to);
    conditions.push(`k.created_at < (${day}::date + 1)::timestamp AT TIME ZONE 'UTC' + interval '12 hours'`);
    conditions.push(`k.created_at < (${day}::date + 1)::timestamp AT TIME ZONE l.time_zone`);
  }
  const where = `WHERE ${conditions.length ? conditions.join(' AND ') : 'true'}`;
  return {
    params,
    from: `FROM ${WITH_JOINS} ${where}`,
    sortExpr: SORT_EXPRESSIONS[query.sort ?? 'created_at'],
    direction: query.dir ?? (query.sort && query.sort !== 'created_at' && query.sort !== 'amount' ? 'asc' : 'desc'),
  };
}

export function listTicketsPage(db: Queryable, scope: LocationScope, query: TicketListQuery, window: ListWindow): Promise<Paged<TicketRow>> {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<TicketRow>(db, { select: ROW_COLUMNS, from, orderBy: `${sortExpr} ${order}, k.ticket_id ${order}`, params, window });
}

export function ticketBatches(db: Queryable, scope: LocationScope, query: TicketListQuery) {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  return keysetBatches<TicketRow & Record<string, unknown>>(db, {
    select: ROW_COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'k.ticket_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

/** The ticket's location, or undefined when there is no such ticket (for the permission check before anything else). */
export async function ticketLocation(db: Queryable, ticketId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ location_id: number }>('SELECT location_id FROM refund_tickets WHERE ticket_id = $1', [ticketId]);
  return rows[0]?.location_id;
}

export async function findTicket(db: Queryable, scope: LocationScope, ticketId: number): Promise<TicketDetail | undefined> {
  const { rows } = await db.query<Omit<TicketDetail, 'notes' | 'transaction'>>(
    `SELECT ${ROW_COLUMNS}, k.decision_reason,
            (SELECT coalesce(sum((r.amount * 100)::bigint), 0)::float8 FROM refunds r
              WHERE r.transaction_id = k.transaction_id AND r.ticket_id = k.ticket_id) AS refunded_cents
       FROM ${WITH_JOINS} WHERE k.ticket_id = $1`,
    [ticketId],
  );
  const ticket = rows[0];
  if (!ticket) return undefined;
  const transaction = await findTransaction(db, scope, ticket.transaction_id);
  if (!transaction) return undefined;
  const notes = await db.query<TicketDetail['notes'][number]>(
    `SELECT n.note_id::float8 AS note_id, n.body, ${iso('n.created_at')} AS created_at, u.email AS created_by
       FROM refund_ticket_notes n LEFT JOIN users u ON u.user_id = n.created_by
      WHERE n.ticket_id = $1 ORDER BY n.note_id`,
    [ticketId],
  );
  return { ...ticket, notes: notes.rows, transaction };
}

export type TicketWriteResult =
  | { kind: 'ok'; ticket: TicketDetail }
  | { kind: 'notFound' }
  | { kind: 'forbidden'; locationId: number }
  | { kind: 'exceeds'; paidCents: number; refundedCents: number }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'decided'; status: string };

/** Opens a ticket about a payment the user may see, for at most what is left to refund of it. */
export async function createTicket(
  tx: Queryable,
  actor: Actor,
  scope: LocationScope,
  mayAddAt: (locationId: number) => boolean,
  input: TicketCreate,
): Promise<TicketWriteResult> {
  const { rows } = await tx.query<{ location_id: number; paid_cents: number; refunded_cents: number }>(
    `SELECT location_id, ${cents('payment_amount')} AS paid_cents, ${cents('refunded_amount')} AS refunded_cents
       FROM transactions WHERE transaction_id = $1`,
    [input.transaction_id],
  );
  const payment = rows[0];
  if (!payment || !(scope.all || scope.ids.includes(payment.location_id))) return { kind: 'notFound' };
  if (!mayAddAt(payment.location_id)) return { kind: 'forbidden', locationId: payment.location_id };
  if (input.amount_cents > payment.paid_cents - payment.refunded_cents) {
    return { kind: 'exceeds', paidCents: payment.paid_cents, refundedCents: payment.refunded_cents };
  }
  const created = await tx.query<{ ticket_id: number }>(
    `INSERT INTO refund_tickets (transaction_id, location_id, amount_requested, reason, created_by, updated_by)
     VALUES ($1, $2, ($3::bigint::numeric / 100), $4, $5, $5) RETURNING ticket_id::float8 AS ticket_id`,
    [input.transaction_id, payment.location_id, input.amount_cents, input.reason, actor.userId],
  );
  const ticketId = created.rows[0]!.ticket_id;
  await writeAudit(tx, {
    actor,
    entity: 'refund_ticket',
    entityId: ticketId,
    action: 'create',
    before: null,
    after: { transaction_id: input.transaction_id, amount_requested_cents: input.amount_cents, reason: input.reason, status: 'open' },
  });
  return { kind: 'ok', ticket: (await findTicket(tx, scope, ticketId))! };
}

export async function addTicketNote(tx: Queryable, actor: Actor, scope: LocationScope, ticketId: number, body: string): Promise<TicketWriteResult> {
  const inserted = await tx.query<{ note_id: number }>(
    `INSERT INTO refund_ticket_notes (ticket_id, body, created_by) VALUES ($1, $2, $3) RETURNING note_id::float8 AS note_id`,
    [ticketId, body, actor.userId],
  );
  await writeAudit(tx, { actor, entity: 'refund_ticket', entityId: ticketId, action: 'note', before: null, after: { note: body } });
  if (!inserted.rows[0]) return { kind: 'notFound' };
  return { kind: 'ok', ticket: (await findTicket(tx, scope, ticketId))! };
}

/** Approves or rejects an open ticket from the version the user saw. */
export async function decideTicket(
  tx: Queryable,
  actor: Actor,
  scope: LocationScope,
  ticketId: number,
  input: TicketDecision,
): Promise<TicketWriteResult> {
  const { rows } = await tx.query<{ status: string; version: number; decision_reason: string | null }>(
    'SELECT status, version, decision_reason FROM refund_tickets WHERE ticket_id = $1 FOR UPDATE',
    [ticketId],
  );
  const before = rows[0];
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) {
    return { kind: 'conflict', conflict: { currentVersion: before.version, ...(await lastChange(tx, 'refund_ticket', ticketId)) } };
  }
  if (before.status !== 'open') return { kind: 'decided', status: before.status };
  const status = input.decision === 'approve' ? 'approved' : 'rejected';
  await tx.query(
    `UPDATE refund_tickets SET status = $2, decision_reason = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE ticket_id = $1`,
    [ticketId, status, input.reason, actor.userId],
  );
  await writeAudit(tx, {
    actor,
    entity: 'refund_ticket',
    entityId: ticketId,
    action: input.decision,
    before: { status: before.status, decision_reason: before.decision_reason, version: before.version },
    after: { status, decision_reason: input.reason, version: before.version + 1 },
  });
  return { kind: 'ok', ticket: (await findTicket(tx, scope, ticketId))! };
}
