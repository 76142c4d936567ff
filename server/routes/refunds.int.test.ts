import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEntry } from '../../src/contract/lists';
import type { RefundResult } from '../../src/contract/refunds';
import type { TransactionDetail } from '../../src/contract/transactions';
import { openPostgresDatabase } from '../db/postgres';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { createTestApi, idTokenFor, TEST_ORIGIN, type CallResult } from '../testing/test-api';
import { BACKENDS, sameSchemaOptions } from '../testing/test-database';
import { concurrentApi } from '../testing/concurrent-api';
import { useSeededApi } from '../testing/seeded-api';

/** Refund-portal edit at Union Station (1). */
const AGENT = 'refund.agent@example.com';
/** Refund-portal view at 1 only. */
const VIEWER = 'refund.viewer@example.com';
/** Refund-portal edit at Pike Place (3) only: payments at 1 are hidden from them. */
const ELSEWHERE = 'refund.elsewhere@example.com';

let nextPaymentId = 7000;

describe.each(BACKENDS)('refunds on %s', (backend) => {
  const context = useSeededApi(backend);
  const db = () => context.database.db;
  const sessions = new Map<string, string>();
  let concurrent: Awaited<ReturnType<typeof concurrentApi>>;

  beforeAll(async () => {
    await applyUserSeed(db(), [
      { email: AGENT, password: 'secret1', permissions: { rp: { e: [1] } } },
      { email: VIEWER, password: 'secret1', permissions: { rp: { v: [1] } } },
      { email: ELSEWHERE, password: 'secret1', permissions: { rp: { e: [3] } } },
    ]);
    concurrent = await concurrentApi(backend, db());
  });
  afterAll(async () => {
    expect(concurrent.api.serverErrors).toEqual([]);
    await concurrent.close();
  });

  /** A new card payment of `amount` (dollars, as text) at `locationId`. */
  async function payment(amount: string, locationId = 1): Promise<number> {
    const id = nextPaymentId++;
    await db().query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee)
       VALUES ($1, $2, $3, '2026-03-01T14:00:00Z', '2026-03-01T16:00:00Z', $4, 0.30)`,
      [id, locationId, `RFD${id}`, amount],
    );
    return id;
  }

  async function sessionOf(email: string, api = context.api) {
    const known = sessions.get(email);
    if (known) return known;
    const { token } = await api.signIn(email);
    sessions.set(email, token);
    return token;
  }

  async function refund(
    email: string,
    transactionId: number,
    body: unknown,
    key: string | undefined,
    api = context.api,
  ): Promise<CallResult<RefundResult>> {
    return api.call<RefundResult>('POST', `/transactions/${transactionId}/refunds`, {
      idToken: idTokenFor(email),
      session: await sessionOf(email, api),
      json: body,
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
    });
  }

  const counts = async (transactionId: number) => {
    const { rows } = await db().query<{ refunds: number; refunded: number; audits: number; keys: number; status: string }>(
      `SELECT (SELECT count(*)::int FROM refunds WHERE transaction_id = $1) AS refunds,
              (SELECT coalesce(sum(amount * 100), 0)::int FROM refunds WHERE transaction_id = $1) AS refunded,
              (SELECT count(*)::int FROM audit_log WHERE entity = 'transaction' AND entity_id = $1::text AND action = 'refund') AS audits,
              (SELECT count(*)::int FROM refund_idempotency_keys k JOIN refunds r USING (refund_id) WHERE r.transaction_id = $1) AS keys,
              (SELECT status FROM transactions WHERE transaction_id = $1) AS status`,
      [transactionId],
    );
    return rows[0]!;
  };
  const storedRefundedCents = async (transactionId: number) =>
    (await db().query<{ c: number }>('SELECT (refunded_amount * 100)::int AS c FROM transactions WHERE transaction_id = $1', [transactionId]))
      .rows[0]!.c;

  it('lets the console send the Idempotency-Key across origins (CORS preflight)', async () => {
    const response = await context.api.app.request('/transactions/1/refunds', {
      method: 'OPTIONS',
      headers: { Origin: TEST_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'idempotency-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
  });

  it('refunds part of a payment, then the rest, with the status, the detail and an audit row following', async () => {
    const id = await payment('12.50');
    const first = await refund(AGENT, id, { amount_cents: 450, reason: '  Gate did not open ' }, 'k-part-1');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      transaction_id: id,
      amount_cents: 450,
      reason: 'Gate did not open',
      ticket_id: null,
      payment_amount_cents: 1250,
      refunded_cents: 450,
      remaining_cents: 800,
      status: 'partially_refunded',
    });
    const detail = (await context.api.getAs<TransactionDetail>(AGENT, `/transactions/${id}`)).body.data!;
    expect(detail).toMatchObject({ refunded_cents: 450, status: 'partially_refunded' });
    expect(detail.refunds).toEqual([expect.objectContaining({ amount_cents: 450, reason: 'Gate did not open', created_by: AGENT })]);

    const rest = await refund(AGENT, id, { amount_cents: 800, reason: 'Rest of it' }, 'k-part-2');
    expect(rest.body.data).toMatchObject({ refunded_cents: 1250, remaining_cents: 0, status: 'refunded' });
    const history = (await context.api.getAs<AuditEntry[]>(AGENT, `/transactions/${id}/history`)).body.data!;
    expect(history.map((entry) => [entry.action, entry.actor?.email])).toEqual([
      ['refund', AGENT],
      ['refund', AGENT],
    ]);
    expect(history[0]?.changes).toContainEqual({ field: 'status', before: 'partially_refunded', after: 'refunded' });
    expect(await counts(id)).toEqual({ refunds: 2, refunded: 1250, audits: 2, keys: 2, status: 'refunded' });
  });

  it('answers a retry with the same key and body with the first answer, refunding once', async () => {
    const id = await payment('20.00');
    const body = { amount_cents: 500, reason: 'Charged twice' };
    const first = await refund(AGENT, id, body, 'retry-key');
    const again = await refund(AGENT, id, body, 'retry-key');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await counts(id)).toMatchObject({ refunds: 1, refunded: 500, audits: 1 });
  });

  it('refuses the same key with another body (409) and writes nothing', async () => {
    const id = await payment('20.00');
    await refund(AGENT, id, { amount_cents: 500, reason: 'Charged twice' }, 'reused-key');
    for (const other of [
      { amount_cents: 600, reason: 'Charged twice' },
      { amount_cents: 500, reason: 'Another reason' },
    ]) {
      const result = await refund(AGENT, id, other, 'reused-key');
      expect(result.status).toBe(409);
      expect(result.body.message).toMatch(/already used for a different refund/);
    }
    const otherPayment = await payment('20.00');
    expect((await refund(AGENT, otherPayment, { amount_cents: 500, reason: 'Charged twice' }, 'reused-key')).status).toBe(409);
    expect(await counts(id)).toMatchObject({ refunds: 1, refunded: 500, audits: 1 });
    expect(await counts(otherPayment)).toMatchObject({ refunds: 0, audits: 0, status: 'paid' });
  });

  it('keys belong to their user: another agent may use the same key for their own refund', async () => {
    await applyUserSeed(db(), [{ email: 'refund.second@example.com', password: 'secret1', permissions: { rp: { e: [1] } } }]);
    const id = await payment('20.00');
    await refund(AGENT, id, { amount_cents: 100, reason: 'One' }, 'shared-key');
    const second = await refund('refund.second@example.com', id, { amount_cents: 100, reason: 'One' }, 'shared-key');
    expect(second.status).toBe(200);
    expect(second.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await counts(id)).toMatchObject({ refunds: 2, refunded: 200 });
  });

  it('refuses more than what is left, in words, writes nothing, and leaves the key free', async () => {
    const id = await payment('10.00');
    await refund(AGENT, id, { amount_cents: 700, reason: 'Part' }, 'left-1');
    const above = await refund(AGENT, id, { amount_cents: 301, reason: 'Too much' }, 'left-2');
    expect(above.status).toBe(400);
    expect(above.body.data).toEqual({
      fieldErrors: { amount_cents: 'The amount is more than what is left to refund: $3.00 of $10.00 paid.' },
    });
    expect(await counts(id)).toMatchObject({ refunds: 1, refunded: 700, audits: 1 });
    // The refusal kept nothing, so the same key may carry the corrected request.
    expect((await refund(AGENT, id, { amount_cents: 300, reason: 'Too much' }, 'left-2')).status).toBe(200);
    const full = await refund(AGENT, id, { amount_cents: 1, reason: 'More' }, 'left-3');
    expect(full.body.data).toEqual({ fieldErrors: { amount_cents: expect.stringMatching(/already refunded in full \(\$10\.00\)/) } });
  });

  const bad: [string, unknown, string | undefined, string][] = [
    ['a negative amount', { amount_cents: -100, reason: 'x' }, 'bad-1', 'amount_cents'],
    ['a zero amount', { amount_cents: 0, reason: 'x' }, 'bad-2', 'amount_cents'],
    ['a fractional cent', { amount_cents: 100.5, reason: 'x' }, 'bad-3', 'amount_cents'],
    ['an amount as text', { amount_cents: '100', reason: 'x' }, 'bad-4', 'amount_cents'],
    ['an amount above the payment', { amount_cents: 2001, reason: 'x' }, 'bad-5', 'amount_cents'],
    ['no reason', { amount_cents: 100 }, 'bad-6', 'reason'],
    ['a blank reason', { amount_cents: 100, reason: '   ' }, 'bad-7', 'reason'],
    ['a 501-character reason', { amount_cents: 100, reason: 'x'.repeat(501) }, 'bad-8', 'reason'],
    ['an unknown field', { amount_cents: 100, reason: 'x', currency: 'EUR' }, 'bad-9', 'currency'],
    ['a ticket of another payment', { amount_cents: 100, reason: 'x', ticket_id: 999999 }, 'bad-10', 'ticket_id'],
    ['no Idempotency-Key', { amount_cents: 100, reason: 'x' }, undefined, 'idempotency-key'],
    ['a key with spaces', { amount_cents: 100, reason: 'x' }, 'two words', 'idempotency-key'],
    ['a 256-character key', { amount_cents: 100, reason: 'x' }, 'k'.repeat(256), 'idempotency-key'],
  ];
  it.each(bad)('answers 400 naming the field for %s, and writes nothing', async (_case, body, key, field) => {
    const id = await payment('20.00');
    const result = await refund(AGENT, id, body, key);
    expect(result.status).toBe(400);
    expect(result.body.message).toContain(field);
    expect(await counts(id)).toEqual({ refunds: 0, refunded: 0, audits: 0, keys: 0, status: 'paid' });
  });

  it.each([
    [VIEWER, 403],
    ['finance@example.com', 403],
    ['promo@example.com', 403],
    ['noaccess@example.com', 403],
    [ELSEWHERE, 404],
  ])('refuses %s (%i) and writes nothing', async (email, status) => {
    const id = await payment('20.00');
    const result = await refund(email, id, { amount_cents: 100, reason: 'x' }, `persona-${email}`);
    expect(result.status).toBe(status);
    expect(await counts(id)).toMatchObject({ refunds: 0, audits: 0, status: 'paid' });
  });

  it('lets the superuser and admin refund anywhere, and the agent only at their location', async () => {
    const atPike = await payment('20.00', 3);
    expect((await refund('superuser@example.com', atPike, { amount_cents: 100, reason: 'x' }, 'su-1')).status).toBe(200);
    expect((await refund('admin@example.com', atPike, { amount_cents: 100, reason: 'x' }, 'adm-1')).status).toBe(200);
    expect((await refund(ELSEWHERE, atPike, { amount_cents: 100, reason: 'x' }, 'else-1')).status).toBe(200);
    expect((await refund(AGENT, atPike, { amount_cents: 100, reason: 'x' }, 'agent-pike')).status).toBe(404);
    expect((await refund(AGENT, 987654321, { amount_cents: 100, reason: 'x' }, 'agent-none')).status).toBe(404);
    expect(await counts(atPike)).toMatchObject({ refunds: 3, refunded: 300, audits: 3 });
  });

  it('50 concurrent refunds with different keys never sum above what was paid', async () => {
    const id = await payment('50.00');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        refund(AGENT, id, { amount_cents: 300, reason: `Race ${index}` }, `race-${index}`, concurrent.api),
      ),
    );
    const statuses = results.map((result) => result.status);
    // 16 × $3.00 = $48.00; a 17th would pass $50.00.
    expect(statuses.filter((status) => status === 200)).toHaveLength(16);
    expect(statuses.filter((status) => status === 400)).toHaveLength(34);
    expect(await counts(id)).toEqual({ refunds: 16, refunded: 4800, audits: 16, keys: 16, status: 'partially_refunded' });
    expect(await storedRefundedCents(id)).toBe(4800);
    const remaining = results.flatMap((result) => (result.status === 200 ? [result.body.data!.remaining_cents] : []));
    expect(new Set(remaining).size).toBe(16);
  });

  it('50 concurrent requests with one key create exactly one refund, and all answer it', async () => {
    const id = await payment('50.00');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => refund(AGENT, id, { amount_cents: 999, reason: 'Double click' }, 'one-key', concurrent.api)),
    );
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((result) => result.body.data!.refund_id)).size).toBe(1);
    expect(results.filter((result) => result.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(49);
    expect(await counts(id)).toEqual({ refunds: 1, refunded: 999, audits: 1, keys: 1, status: 'partially_refunded' });
  });

  it('a connection cut after the request was sent, then a retry with the same key, refunds once', async () => {
    const id = await payment('30.00');
    const server = serve({ fetch: concurrent.api.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const body = JSON.stringify({ amount_cents: 1500, reason: 'Lost answer' });
      const token = await sessionOf(AGENT, concurrent.api);
      // The whole request goes out, then the client's socket is destroyed before any answer is read.
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            [
              `POST /transactions/${id}/refunds HTTP/1.1`,
              `Host: 127.0.0.1:${port}`,
              `Authorization: Bearer ${idTokenFor(AGENT)}`,
              `JwtToken: ${token}`,
              'Idempotency-Key: cut-key',
              'Content-Type: application/json',
              `Content-Length: ${Buffer.byteLength(body)}`,
              '',
              body,
            ].join('\r\n'),
            () => {
              socket.destroy();
              resolve();
            },
          );
        });
        socket.once('error', reject);
      });
      // The server goes on and commits; the client never heard. Wait for the commit, then retry.
      for (let attempt = 0; attempt < 200 && (await counts(id)).refunds === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const retry = await refund(AGENT, id, { amount_cents: 1500, reason: 'Lost answer' }, 'cut-key', concurrent.api);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await counts(id)).toEqual({ refunds: 1, refunded: 1500, audits: 1, keys: 1, status: 'partially_refunded' });
    } finally {
      await new Promise((resolve) => {
        server.close(resolve);
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    }
  });

  it.runIf(backend === 'postgres')(
    "a database connection cut inside the refund's transaction writes nothing, and the retry with the key refunds once",
    async () => {
      const id = await payment('30.00');
      const schemaOptions = await sameSchemaOptions(db());
      const blocker = new pg.Client({ connectionString: inject('databaseUrl'), options: schemaOptions });
      await blocker.connect();
      // A separate app whose server errors this test expects (the cut request fails on the server).
      const pool = openPostgresDatabase({ connectionString: inject('databaseUrl'), options: schemaOptions, max: 2 });
      const api = createTestApi(pool);
      try {
        const blockerPid = (await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM transactions WHERE transaction_id = $1 FOR UPDATE', [id]);
        const body = { amount_cents: 1000, reason: 'Crash' };
        const pending = refund(AGENT, id, body, 'crash-key', api);
        // The refund (one call of refund_payment, migration 015) waits for the payment's row lock: cut its connection there.
        let victim: number | undefined;
        for (let attempt = 0; attempt < 200 && victim === undefined; attempt++) {
          // Not through the blocker: inside its transaction pg_stat_activity would stay as it first read it.
          const waiting = await db().query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%refund_payment(%' AND pid <> $1`,
            [blockerPid],
          );
          victim = waiting.rows[0]?.pid;
          if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(victim).toBeDefined();
        await blocker.query('SELECT pg_terminate_backend($1)', [victim]);
        const cut = await pending;
        expect(cut.status).toBe(500);
        expect(api.serverErrors).toHaveLength(1);
        await blocker.query('ROLLBACK');
        expect(await counts(id)).toMatchObject({ refunds: 0, audits: 0, status: 'paid' });
        const keys = await db().query("SELECT 1 FROM refund_idempotency_keys WHERE key = 'crash-key'");
        expect(keys.rows).toHaveLength(0);

        const retry = await refund(AGENT, id, body, 'crash-key', api);
        expect(retry.status).toBe(200);
        expect((await refund(AGENT, id, body, 'crash-key', api)).body.data).toEqual(retry.body.data);
        expect(await counts(id)).toEqual({ refunds: 1, refunded: 1000, audits: 1, keys: 1, status: 'partially_refunded' });
      } finally {
        await blocker.end();
        await pool.close();
      }
    },
  );
});
