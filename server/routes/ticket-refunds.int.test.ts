import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDetail } from '../../src/contract/refund-tickets';
import type { RefundResult } from '../../src/contract/refunds';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { concurrentApi } from '../testing/concurrent-api';
import { idTokenFor, type CallResult, type createTestApi } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Refunds against tickets (issue 34, docs/api.md "Refund tickets"): a ticket's refunds never sum above what it asked
 * for, a refunded or rejected ticket takes no refund, and the payment's own bound still holds, under retries and races.
 */
const AGENT = 'bound.agent@example.com';

type Api = ReturnType<typeof createTestApi>;

describe.each(BACKENDS)('refunds against tickets on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<Api, string>();
  let concurrent: Awaited<ReturnType<typeof concurrentApi>>;

  beforeAll(async () => {
    await applyUserSeed(db(), [{ email: AGENT, password: 'secret1', permissions: { rp: { e: [1] } } }]);
    concurrent = await concurrentApi(backend, db());
  });
  afterAll(async () => {
    expect(concurrent.api.serverErrors).toEqual([]);
    await concurrent.close();
  });

  async function call<T>(path: string, json?: unknown, headers: Record<string, string> = {}, api = context.api): Promise<CallResult<T>> {
    let token = sessions.get(api);
    if (!token) {
      token = (await api.signIn(AGENT)).token;
      sessions.set(api, token);
    }
    return api.call<T>(json === undefined ? 'GET' : 'POST', path, {
      idToken: idTokenFor(AGENT),
      session: token,
      json,
      headers,
    });
  }
  /** A new payment at Union Station (1) of `cents`, numbered after every other (the seed's included). */
  async function payment(cents: number): Promise<number> {
    const { rows } = await db().query<{ id: number }>(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       SELECT coalesce(max(transaction_id), 0) + 1, 1, 'BND' || (coalesce(max(transaction_id), 0) + 1) % 100000,
              '2026-03-01T14:00:00Z', '2026-03-01T16:00:00Z', $1::bigint::numeric / 100
         FROM transactions RETURNING transaction_id::float8 AS id`,
      [cents],
    );
    return rows[0]!.id;
  }
  const openTicket = (transactionId: number, cents: number) =>
    call<TicketDetail>('/refund-tickets', {
      transaction_id: transactionId,
      amount_cents: cents,
      reason: 'Asked back',
    });
  const decide = (ticket: TicketDetail, decision: 'approve' | 'reject') =>
    call<TicketDetail>(`/refund-tickets/${ticket.ticket_id}/decision`, {
      decision,
      reason: 'Checked',
      version: ticket.version,
    });
  const refund = (transactionId: number, cents: number, key: string, ticketId?: number, api = context.api) =>
    call<RefundResult>(
      `/transactions/${transactionId}/refunds`,
      { amount_cents: cents, reason: 'Agreed', ticket_id: ticketId },
      { 'Idempotency-Key': key },
      api,
    );
  const ticketNow = async (ticketId: number) => (await call<TicketDetail>(`/refund-tickets/${ticketId}`)).body.data!;

  /** An approved ticket for `askedCents` on a new payment of `paidCents`. */
  async function approvedTicket(paidCents: number, askedCents: number) {
    const id = await payment(paidCents);
    const opened = (await openTicket(id, askedCents)).body.data!;
    const approved = await decide(opened, 'approve');
    expect(approved.status).toBe(200);
    return approved.body.data!;
  }

  it('refunds a $12 ticket on a $30.96 payment up to $12 only, stays approved until then, and then takes nothing', async () => {
    const ticket = await approvedTicket(3096, 1200);
    const first = await refund(ticket.transaction_id, 1000, 'why-1', ticket.ticket_id);
    expect(first.status).toBe(200);
    expect(await ticketNow(ticket.ticket_id)).toMatchObject({
      status: 'approved',
      refunded_cents: 1000,
    });

    // $2.01 is within the payment ($20.96 left) but above what the ticket still asks for: refused at the amount, in words.
    const over = await refund(ticket.transaction_id, 201, 'why-2', ticket.ticket_id);
    expect(over.status).toBe(400);
    expect(over.body.data).toEqual({
      fieldErrors: {
        amount_cents: 'The amount is more than ticket ' + ticket.ticket_id + ' still asks for: $2.00 of the $12.00 it asked for.',
      },
    });

    const rest = await refund(ticket.transaction_id, 200, 'why-2', ticket.ticket_id);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({
      refunded_cents: 1200,
      remaining_cents: 1896,
      status: 'partially_refunded',
    });
    expect(await ticketNow(ticket.ticket_id)).toMatchObject({
      status: 'refunded',
      refunded_cents: 1200,
    });

    // Refunded is closed: even a cent is refused, naming the ticket; the payment itself may still be refunded without it.
    const closed = await refund(ticket.transaction_id, 1, 'why-3', ticket.ticket_id);
    expect(closed.status).toBe(400);
    expect(closed.body.data).toEqual({
      fieldErrors: {
        ticket_id: `Ticket ${ticket.ticket_id} is refunded in full; it takes no more refunds.`,
      },
    });
    expect((await refund(ticket.transaction_id, 100, 'why-4')).status).toBe(200);

    // A retry of an earlier refund still answers its first result.
    const replay = await refund(ticket.transaction_id, 200, 'why-2', ticket.ticket_id);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.data?.refund_id).toBe(rest.body.data?.refund_id);
    expect((await ticketNow(ticket.ticket_id)).refunded_cents).toBe(1200);
  });

  it('refuses a rejected ticket in words and writes nothing', async () => {
    const id = await payment(1000);
    const opened = (await openTicket(id, 500)).body.data!;
    await decide(opened, 'reject');
    const refused = await refund(id, 100, 'rejected-1', opened.ticket_id);
    expect(refused.status).toBe(400);
    expect(refused.body.data).toEqual({
      fieldErrors: {
        ticket_id: `Ticket ${opened.ticket_id} was rejected; it takes no refund.`,
      },
    });
    expect((await ticketNow(opened.ticket_id)).transaction.refunds).toEqual([]);
  });

  it('any sequence of tickets, decisions, refunds and retries keeps refunds ≤ ticket amount ≤ payment amount', async () => {
    // Tickets opened and decided first (so that most refunds meet a decided ticket), then refunds mostly from them,
    // with more tickets and decisions among them.
    const step = fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant('open' as const),
          cents: fc.integer({ min: 1, max: 800 }),
        }),
        weight: 1,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant('decide' as const),
          ticket: fc.nat(2),
          approve: fc.boolean(),
        }),
        weight: 1,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant('refund' as const),
          ticket: fc.option(fc.nat(2), { nil: undefined, freq: 4 }),
          cents: fc.integer({ min: 1, max: 400 }),
          // A few keys, so that some refunds are retries of earlier ones (same body) or reuse a key (another body).
          key: fc.nat(4),
        }),
        weight: 5,
      },
    );
    const opening = fc.record({
      open: fc.record({
        kind: fc.constant('open' as const),
        cents: fc.integer({ min: 1, max: 800 }),
      }),
      approve: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
    });
    let run = 0;
    /** So that the property is not vacuous: refunds made from tickets, and refunds refused at a ticket's bound only. */
    const seen = { ticketRefunds: 0, refusedAtTicketBound: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 300, max: 1500 }),
        fc.array(opening, { minLength: 1, maxLength: 2 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (paidCents, openings, rest) => {
          const steps = [
            ...openings.flatMap((first, index) => [
              first.open,
              {
                kind: 'decide' as const,
                ticket: index,
                approve: first.approve,
              },
            ]),
            ...rest,
          ];
          run += 1;
          const id = await payment(paidCents);
          const tickets: TicketDetail[] = [];
          /** The body each key refunded with. */
          const keys = new Map<number, { body: string }>();
          const model = {
            paymentRefunded: 0,
            ticketRefunded: new Map<number, number>(),
          };
          for (const action of steps) {
            if (action.kind === 'open') {
              const opened = await openTicket(id, action.cents);
              expect(opened.status).toBe(action.cents <= paidCents - model.paymentRefunded ? 200 : 400);
              if (opened.status === 200) tickets.push(opened.body.data!);
            } else if (action.kind === 'decide') {
              const ticket = tickets[action.ticket];
              if (!ticket) continue;
              const current = await ticketNow(ticket.ticket_id);
              const decided = await decide(current, action.approve ? 'approve' : 'reject');
              expect(decided.status).toBe(current.status === 'open' ? 200 : 409);
            } else {
              const ticket = action.ticket === undefined ? undefined : tickets[action.ticket];
              if (action.ticket !== undefined && !ticket) continue;
              const key = `p${run}-${action.key}`;
              const body = JSON.stringify([action.cents, ticket?.ticket_id]);
              const before = ticket && (await ticketNow(ticket.ticket_id));
              const result = await refund(id, action.cents, key, ticket?.ticket_id);
              // A refused request keeps no key: only a key that refunded answers again.
              const kept = keys.get(action.key);
              const fitsPayment = action.cents <= paidCents - model.paymentRefunded;
              // What the ticket took so far comes from the model, not from the server's own sum.
              const fitsTicket =
                !before ||
                (before.status === 'approved' &&
                  action.cents <= before.amount_requested_cents - (model.ticketRefunded.get(before.ticket_id) ?? 0));
              if (kept) {
                // A retry: the first answer again with the same body, 409 with another.
                expect(result.status).toBe(kept.body === body ? 200 : 409);
                if (result.status === 200) expect(result.headers.get('Idempotent-Replayed')).toBe('true');
              } else {
                expect(result.status).toBe(fitsPayment && fitsTicket ? 200 : 400);
              }
              const moved = result.status === 200 && result.headers.get('Idempotent-Replayed') !== 'true';
              if (moved) keys.set(action.key, { body });
              if (!kept && fitsPayment && !fitsTicket && before?.status === 'approved') seen.refusedAtTicketBound += 1;
              if (moved) {
                if (ticket) seen.ticketRefunds += 1;
                model.paymentRefunded += action.cents;
                if (ticket) model.ticketRefunded.set(ticket.ticket_id, (model.ticketRefunded.get(ticket.ticket_id) ?? 0) + action.cents);
              }
            }
          }
          const { rows } = await db().query<{
            asked: number;
            refunded: number;
            paid: number;
            payment_refunded: number;
            status: string;
            ticket_id: number;
          }>(
            `SELECT k.ticket_id::float8 AS ticket_id, (k.amount_requested * 100)::int AS asked, k.status,
                  (SELECT coalesce(sum(r.amount * 100), 0)::int FROM refunds r WHERE r.ticket_id = k.ticket_id) AS refunded,
                  (t.payment_amount * 100)::int AS paid, (t.refunded_amount * 100)::int AS payment_refunded
             FROM refund_tickets k JOIN transactions t USING (transaction_id) WHERE k.transaction_id = $1`,
            [id],
          );
          for (const row of rows) {
            expect(row.refunded).toBeLessThanOrEqual(row.asked);
            expect(row.asked).toBeLessThanOrEqual(row.paid);
            expect(row.payment_refunded).toBeLessThanOrEqual(row.paid);
            expect(row.refunded).toBe(model.ticketRefunded.get(row.ticket_id) ?? 0);
            // Refunded exactly when its refunds reached what it asked for.
            expect(row.status === 'refunded').toBe(row.refunded === row.asked);
          }
          const paymentRefunded = await db().query<{ c: number }>(
            `SELECT (refunded_amount * 100)::int AS c FROM transactions WHERE transaction_id = $1`,
            [id],
          );
          expect(paymentRefunded.rows[0]!.c).toBe(model.paymentRefunded);
        },
      ),
      { numRuns: 40, seed: 34, endOnFailure: true },
    );
    expect(seen.ticketRefunds).toBeGreaterThan(5);
    expect(seen.refusedAtTicketBound).toBeGreaterThan(0);
  }, 120_000);

  it('many refunds of one ticket at once never sum above what it asked for', async () => {
    const ticket = await approvedTicket(3096, 1200);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => refund(ticket.transaction_id, 100, `race-${index}`, ticket.ticket_id, concurrent.api)),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 400)).toHaveLength(18);
    expect(await ticketNow(ticket.ticket_id)).toMatchObject({
      status: 'refunded',
      refunded_cents: 1200,
    });
    expect((await ticketNow(ticket.ticket_id)).transaction.refunded_cents).toBe(1200);
  });
});
