import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Paged } from '../../src/contract/lists';
import type { TicketDetail, TicketRow } from '../../src/contract/refund-tickets';
import type { RefundResult } from '../../src/contract/refunds';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { idTokenFor, type CallResult } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/** Refund-portal edit (so add and view) at Union Station (1). */
const AGENT = 'ticket.agent@example.com';
/** Refund-portal view at 1: may read and add notes, not open or decide. */
const VIEWER = 'ticket.viewer@example.com';
/** Refund-portal view and add at 1: may open tickets, not decide them. */
const DESK = 'ticket.desk@example.com';
/** Refund-portal edit at Pike Place (3) only. */
const ELSEWHERE = 'ticket.elsewhere@example.com';

describe.each(BACKENDS)('refund tickets on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<string, string>();
  let nextPayment = 8000;

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: AGENT, password: 'secret1', permissions: { rp: { e: [1] } } },
      { email: VIEWER, password: 'secret1', permissions: { rp: { v: [1] } } },
      { email: DESK, password: 'secret1', permissions: { rp: { a: [1] } } },
      { email: ELSEWHERE, password: 'secret1', permissions: { rp: { e: [3] } } },
    ]);
  });

  async function call<T>(email: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<CallResult<T>> {
    let token = sessions.get(email);
    if (!token) {
      token = (await context.api.signIn(email)).token;
      sessions.set(email, token);
    }
    return context.api.call<T>(json === undefined ? 'GET' : 'POST', path, { idToken: idTokenFor(email), session: token, json, headers });
  }
  async function payment(amount: string, locationId = 1) {
    const id = nextPayment++;
    await db().query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       VALUES ($1, $2, $3, '2026-03-01T14:00:00Z', '2026-03-01T16:00:00Z', $4)`,
      [id, locationId, `TKT${id}`, amount],
    );
    return id;
  }
  const open = (email: string, transactionId: number, amount_cents = 500, reason = 'Charged for two hours, stayed one') =>
    call<TicketDetail>(email, '/refund-tickets', { transaction_id: transactionId, amount_cents, reason });
  const ticketCount = async () => Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM refund_tickets')).rows[0]!.n);

  it('goes from a payment to a ticket, a note, an approval and a refund, each in History', async () => {
    const id = await payment('12.50');
    const opened = await open(DESK, id, 600);
    expect(opened.status).toBe(200);
    const ticket = opened.body.data!;
    expect(ticket).toMatchObject({ transaction_id: id, status: 'open', amount_requested_cents: 600, requester: DESK, version: 1 });
    expect(ticket.transaction).toMatchObject({ transaction_id: id, amount_cents: 1250, refunds: [] });

    const noted = await call<TicketDetail>(VIEWER, `/refund-tickets/${ticket.ticket_id}/notes`, { body: ' Called back, plate confirmed ' });
    expect(noted.body.data?.notes).toEqual([expect.objectContaining({ body: 'Called back, plate confirmed', created_by: VIEWER })]);

    // Refunding an open ticket is refused: it must be approved first.
    const early = await call(AGENT, `/transactions/${id}/refunds`, { amount_cents: 600, reason: 'x', ticket_id: ticket.ticket_id }, { 'Idempotency-Key': 'early' });
    expect(early.status).toBe(400);
    expect(early.body.data).toEqual({ fieldErrors: { ticket_id: expect.stringMatching(/open; approve it/) } });

    const approved = await call<TicketDetail>(AGENT, `/refund-tickets/${ticket.ticket_id}/decision`, { decision: 'approve', reason: 'Receipt checks out', version: 1 });
    expect(approved.body.data).toMatchObject({ status: 'approved', decision_reason: 'Receipt checks out', version: 2 });

    const refunded = await call<RefundResult>(AGENT, `/transactions/${id}/refunds`, { amount_cents: 600, reason: 'Ticket', ticket_id: ticket.ticket_id }, { 'Idempotency-Key': 'tk-1' });
    expect(refunded.body.data).toMatchObject({ ticket_id: ticket.ticket_id, remaining_cents: 650 });
    const after = (await call<TicketDetail>(VIEWER, `/refund-tickets/${ticket.ticket_id}`)).body.data!;
    expect(after).toMatchObject({ status: 'refunded', version: 3 });
    expect(after.transaction).toMatchObject({ refunded_cents: 600, status: 'partially_refunded', refunds: [expect.objectContaining({ amount_cents: 600 })] });

    const history = (await call<AuditEntry[]>(VIEWER, `/refund-tickets/${ticket.ticket_id}/history`)).body.data!;
    expect(history.map((entry) => [entry.action, entry.actor?.email])).toEqual([
      ['refund', AGENT],
      ['approve', AGENT],
      ['note', VIEWER],
      ['create', DESK],
    ]);
  });

  it('refuses a second decision and a decision from an old version (409)', async () => {
    const ticket = (await open(AGENT, await payment('10.00'))).body.data!;
    const stale = await call(AGENT, `/refund-tickets/${ticket.ticket_id}/decision`, { decision: 'reject', reason: 'No', version: 2 });
    expect(stale.status).toBe(409);
    expect((await call(AGENT, `/refund-tickets/${ticket.ticket_id}/decision`, { decision: 'reject', reason: 'Stayed 3 hours', version: 1 })).status).toBe(200);
    const again = await call(AGENT, `/refund-tickets/${ticket.ticket_id}/decision`, { decision: 'approve', reason: 'Changed my mind', version: 2 });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already rejected/);
    const refund = await call(AGENT, `/transactions/${ticket.transaction_id}/refunds`, { amount_cents: 100, reason: 'x', ticket_id: ticket.ticket_id }, { 'Idempotency-Key': 'rejected-1' });
    expect(refund.status).toBe(400);
  });

  it.each([
    ['no reason', { amount_cents: 100 }, 'reason'],
    ['a negative amount', { amount_cents: -1, reason: 'x' }, 'amount_cents'],
    ['a fractional cent', { amount_cents: 1.5, reason: 'x' }, 'amount_cents'],
    ['more than was paid', { amount_cents: 1001, reason: 'x' }, 'amount_cents'],
    ['no transaction', { transaction_id: undefined, amount_cents: 100, reason: 'x' }, 'transaction_id'],
  ])('answers 400 naming the field for %s, and writes nothing', async (_case, body, field) => {
    const id = await payment('10.00');
    const before = await ticketCount();
    const result = await call(AGENT, '/refund-tickets', { transaction_id: id, ...body });
    expect(result.status).toBe(400);
    expect(result.body.message).toContain(field);
    expect(await ticketCount()).toBe(before);
  });

  it('keeps each persona to their level and locations', async () => {
    const id = await payment('10.00');
    const atPike = await payment('10.00', 3);
    const before = await ticketCount();
    expect((await open(VIEWER, id)).status).toBe(403);
    expect((await open('finance@example.com', id)).status).toBe(403);
    expect((await open(ELSEWHERE, id)).status).toBe(404);
    expect((await open(AGENT, atPike)).status).toBe(404);
    expect(await ticketCount()).toBe(before);

    const ticket = (await open(DESK, id)).body.data!;
    const decide = { decision: 'approve', reason: 'ok', version: 1 };
    expect((await call(DESK, `/refund-tickets/${ticket.ticket_id}/decision`, decide)).status).toBe(403);
    expect((await call(VIEWER, `/refund-tickets/${ticket.ticket_id}/decision`, decide)).status).toBe(403);
    expect((await call(ELSEWHERE, `/refund-tickets/${ticket.ticket_id}/decision`, decide)).status).toBe(404);
    expect((await call(ELSEWHERE, `/refund-tickets/${ticket.ticket_id}`)).status).toBe(404);
    expect((await call(ELSEWHERE, `/refund-tickets/${ticket.ticket_id}/notes`, { body: 'hi' })).status).toBe(404);
    expect((await call('noaccess@example.com', `/refund-tickets/${ticket.ticket_id}`)).status).toBe(403);
    expect((await call('finance@example.com', `/refund-tickets/${ticket.ticket_id}`)).status).toBe(200);
    expect((await call('superuser@example.com', `/refund-tickets/${ticket.ticket_id}/decision`, decide)).status).toBe(200);
  });

  it('lists tickets of the user’s locations with filters, sort and CSV', async () => {
    const pike = (await open('superuser@example.com', await payment('20.00', 3), 2000)).body.data!;
    const mine = await call<Paged<TicketRow>>(AGENT, '/refund-tickets?pageSize=100');
    expect(mine.body.data?.rows.map((row) => row.ticket_id)).not.toContain(pike.ticket_id);
    expect(mine.body.data?.rows.every((row) => row.location_id === 1)).toBe(true);
    const all = await call<Paged<TicketRow>>('finance@example.com', '/refund-tickets?locationId=3&sort=amount&dir=desc');
    expect(all.body.data?.rows[0]).toMatchObject({ ticket_id: pike.ticket_id, amount_requested_cents: 2000, location_name: 'Pike Place Market Garage' });
    const open_ = await call<Paged<TicketRow>>('finance@example.com', '/refund-tickets?status=rejected&pageSize=100');
    expect(open_.body.data?.rows.every((row) => row.status === 'rejected')).toBe(true);
    expect(open_.body.data?.total).toBeGreaterThan(0);
    expect((await call('finance@example.com', '/refund-tickets?from=2026-02-30')).status).toBe(400);
    // Days are on the ticket's location's clock: 05:00 UTC on 3 March is still 2 March (23:00) in Chicago.
    const late = (await open('superuser@example.com', await payment('9.00'), 900)).body.data!;
    await db().query(`UPDATE refund_tickets SET created_at = '2026-03-03T05:00:00Z' WHERE ticket_id = $1`, [late.ticket_id]);
    const onDay = async (from: string, to: string) =>
      (await call<Paged<TicketRow>>('finance@example.com', `/refund-tickets?locationId=1&from=${from}&to=${to}&pageSize=100`)).body.data!.rows.map((row) => row.ticket_id);
    expect(await onDay('2026-03-02', '2026-03-02')).toContain(late.ticket_id);
    expect(await onDay('2026-03-03', '2026-03-03')).not.toContain(late.ticket_id);
    expect(await onDay('2026-03-01', '2026-03-01')).not.toContain(late.ticket_id);

    const { token } = await context.api.signIn('finance@example.com');
    const response = await context.api.app.request('/refund-tickets/export?locationId=3', {
      headers: { Authorization: `Bearer ${idTokenFor('finance@example.com')}`, JwtToken: token },
    });
    const records = parse((await response.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(records).toEqual([expect.objectContaining({ 'Ticket ID': String(pike.ticket_id), 'Amount asked': '20.00', Status: 'open' })]);
  });
});
