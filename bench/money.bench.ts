/**
 * Refunds and promo-code redemptions under concurrency (`npm run bench:money`), on a throwaway PostgreSQL cluster
 * (bench/lib/postgres.ts), through the real app (`createApp` with the tests' fake ID-token verifier, `app.request`:
 * session, permission check, validation, the locked transaction, JSON), 32 clients at a time over a pool of 32
 * connections:
 *
 * 0. floor: the same number of reads of one payment by id, through the same session and permission checks.
 * 1. distinct: each request refunds $1.00 of its own payment with its own Idempotency-Key; every 10th is also sent a
 *    second time, at once, with the same key (a double click), which must replay the first answer.
 * 2. hot: every request refunds 1¢ of one and the same payment (all of them queue on its row lock).
 * 3. redeem: every request redeems one and the same promo code (no cap) for its own plate; then a code capped at
 *    --cap is redeemed 2 × --cap times, which must succeed exactly --cap times.
 *
 * At the end the invariants are checked in SQL: every payment's refunded amount equals the sum of its refunds and
 * never exceeds what was paid, its status follows, one audit row per refund and per redemption, one key per refund,
 * each code's uses equal its redemptions and stay within its cap. Prints tables, writes bench/results/money.json.
 * Reports goals; never fails a build. Each phase also reports the CPU per request of the Node thread (client and API
 * share it) and of the cluster's client backends (from /proc; 0 with --database-url), which says which side limits.
 *
 *   npm run bench:money
 *   npm run bench:money -- --requests 2000 --clients 16
 *
 * Options: --requests N per phase (default 6000), --clients N (default 32), --pool N server connections (default: clients),
 * --cap N (default 500), --database-url URL (an empty PostgreSQL database instead of a throwaway cluster).
 */
import { SESSION_HEADER } from '../src/contract/envelope';
import { createApp } from '../server/app';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPostgresDatabase } from '../server/db/postgres';
import { applyDemoSeed } from '../server/db/seed/demo-seed';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from '../server/testing/test-api';
import { option } from './lib/cli';
import { startThrowawayPostgres, type ThrowawayPostgres } from './lib/postgres';
import { readProcStat, TICKS_PER_SECOND } from './lib/proc-stat';
import { formatGoals, formatTable, goalAtLeast, goalAtMost, machineInfo, writeResults } from './lib/report';
import { round, summarize, type Summary } from './lib/stats';

const REQUESTS = Number(option('requests') ?? 6000);
const CLIENTS = Number(option('clients') ?? 32);
/**
 * Server-side connections, one per client unless --pool says otherwise. Fewer beat more while a refund cost ~3 ms of
 * PostgreSQL CPU (8 vs 32: 387 vs 305 refunds/s); since migration 015 the two are within the noise of a shared
 * machine (2026-11-24 full runs: 8 → 802, 1,292, 897 refunds/s; 32 → 1,063, 1,008), so the default stays.
 */
const POOL = Number(option('pool') ?? CLIENTS);
const CAP = Number(option('cap') ?? 500);
const NOW = new Date('2026-03-02T15:00:00Z');
const FIRST_PAYMENT = 1_000_000;
const HOT_PAYMENT = 999_999;

type App = ReturnType<typeof createApp>;

async function signIn(app: App, email: string): Promise<Record<string, string>> {
  const authorization = `Bearer ${idTokenFor(email)}`;
  const response = await app.request('/auth/permissions', {
    method: 'POST',
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await response.json()) as { data?: { userData: { token: string } } };
  if (!body.data) throw new Error(`sign-in of ${email} failed (${response.status})`);
  return { Authorization: authorization, [SESSION_HEADER]: body.data.userData.token, 'Content-Type': 'application/json' };
}

interface PhaseResult {
  requests: number;
  ok: number;
  refused: number;
  other: number;
  seconds: number;
  perSecond: number;
  nodeCpuMsPerRequest: number;
  /** CPU of the cluster's client backends per request (0 with --database-url: their processes are not ours to read). */
  postgresCpuMsPerRequest: number;
  latencyMs: Summary;
}

/** The CPU (ms) the given processes have used so far, from /proc; a process that is gone counts 0. */
function cpuMsOf(pids: readonly number[]): Map<number, number> {
  return new Map(
    pids.map((pid) => {
      const stat = readProcStat(pid);
      return [pid, stat === undefined ? 0 : ((stat.utime + stat.stime) * 1000) / TICKS_PER_SECOND];
    }),
  );
}

/** The pids of the throwaway cluster's client backends (the pool's connections); none when it is not ours. */
let backendPids: () => Promise<number[]> = async () => [];

/** `count` requests from `clients` concurrent loops; `send(i)` returns the HTTP status. */
async function phase(count: number, clients: number, send: (index: number) => Promise<number>): Promise<PhaseResult> {
  let next = 0;
  const latencies: number[] = [];
  const statuses = { ok: 0, refused: 0, other: 0 };
  const pidsBefore = await backendPids();
  const backendCpuBefore = cpuMsOf(pidsBefore);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let index = next++; index < count; index = next++) {
        const sent = performance.now();
        const status = await send(index);
        latencies.push(performance.now() - sent);
        if (status === 200) statuses.ok++;
        else if (status === 400 || status === 409) statuses.refused++;
        else statuses.other++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // The API and the clients share this Node thread; what it spends per request shows whether Node or PostgreSQL limits.
  const nodeCpuMsPerRequest = round((cpu.user + cpu.system) / 1000 / count);
  // Backends opened during the phase count from 0; one closed during it loses its share (the pool keeps them open).
  const backendCpuAfter = cpuMsOf([...new Set([...pidsBefore, ...(await backendPids())])]);
  let backendCpuMs = 0;
  for (const [pid, ms] of backendCpuAfter) backendCpuMs += Math.max(0, ms - (backendCpuBefore.get(pid) ?? 0));
  const postgresCpuMsPerRequest = round(backendCpuMs / count);
  return {
    requests: count,
    ...statuses,
    seconds: round(seconds),
    perSecond: round(count / seconds),
    nodeCpuMsPerRequest,
    postgresCpuMsPerRequest,
    latencyMs: summarize(latencies),
  };
}

async function checkInvariants(db: Db) {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT
       (SELECT count(*)::int FROM transactions t
         WHERE t.refunded_amount <> coalesce((SELECT sum(r.amount) FROM refunds r WHERE r.transaction_id = t.transaction_id), 0)
            OR t.refunded_amount > t.payment_amount
            OR t.status <> CASE WHEN t.refunded_amount = 0 THEN 'paid'
                                WHEN t.refunded_amount = t.payment_amount THEN 'refunded' ELSE 'partially_refunded' END)
         AS payments_off,
       (SELECT count(*)::int FROM refunds r
         WHERE (SELECT count(*) FROM audit_log a WHERE a.entity = 'transaction' AND a.action = 'refund'
                  AND a.entity_id = r.transaction_id::text AND (a.after ->> 'refund_id')::bigint = r.refund_id) <> 1)
         AS refunds_without_one_audit_row,
       (SELECT count(*)::int FROM refunds r WHERE NOT EXISTS (SELECT 1 FROM refund_idempotency_keys k WHERE k.refund_id = r.refund_id))
         AS refunds_without_key,
       (SELECT count(*)::int FROM refund_idempotency_keys WHERE refund_id IS NULL) AS keys_without_refund,
       (SELECT count(*)::int FROM promo_codes p
         WHERE p.uses <> (SELECT count(*) FROM promo_redemptions r WHERE r.promo_code_id = p.promo_code_id)
            OR p.uses > coalesce(p.total_cap, p.uses)) AS codes_off,
       (SELECT count(*)::int FROM promo_redemptions r
         WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.entity = 'promo_redemption' AND a.entity_id = r.redemption_id::text))
         AS redemptions_without_audit_row,
       (SELECT count(*)::int FROM promo_redemption_keys WHERE redemption_id IS NULL) AS redemption_keys_without_redemption`,
  );
  return rows[0]!;
}

async function main() {
  let cluster: ThrowawayPostgres | undefined;
  const databaseUrl = option('database-url') ?? (cluster = await startThrowawayPostgres('lpa_money')).url;
  const db = openPostgresDatabase({ connectionString: databaseUrl, max: POOL });
  try {
    await migrate(db);
    await applyDemoSeed(db);
    if (cluster) {
      backendPids = async () =>
        (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'`)).rows.map((row) => row.pid);
    }
    console.info(`PostgreSQL ${cluster?.version ?? databaseUrl}; ${REQUESTS} requests a phase, ${CLIENTS} clients over ${POOL} connections; load ${machineInfo().loadAverage.join(' ')}`);
    await db.query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       SELECT id, 1 + id % 6, 'BENCH' || (id % 100000), $2::timestamptz, $2::timestamptz + interval '2 hours', 50.00
         FROM generate_series($1::bigint, $1::bigint + $3 - 1) AS id`,
      [FIRST_PAYMENT, NOW.toISOString(), REQUESTS],
    );
    await db.query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       VALUES ($1, 1, 'HOT1', $2::timestamptz, $2::timestamptz + interval '2 hours', 100000.00)`,
      [HOT_PAYMENT, NOW.toISOString()],
    );
    const app = createApp({
      db,
      verifyIdToken: fakeVerifyIdToken,
      session: { secret: TEST_SESSION_SECRET, ttlSeconds: 3600 },
      corsOrigins: [],
      now: () => NOW,
      logError: (message, error) => console.error(`[api] ${message}:`, error),
    });
    const headers = await signIn(app, 'admin@example.com');
    const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
      const response = await app.request(path, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      return response.status;
    };
    const promo = async (code: string, cap: number | null) =>
      post('/promo-codes', {
        code,
        discount_type: 'percent',
        discount_value: 10,
        multi_use: true,
        total_cap: cap,
        per_plate_cap: null,
        valid_from: '2026-03-01T00:00:00Z',
        valid_to: '2026-04-01T00:00:00Z',
        location_ids: [1],
        active: true,
      });
    if ((await promo('HOTCODE', null)) !== 200 || (await promo('CAPPED', CAP)) !== 200) throw new Error('could not create the codes');

    // Warm-up: the JIT, the pool's connections, the planner's caches.
    await phase(200, CLIENTS, (index) => post(`/transactions/${FIRST_PAYMENT + index}/refunds`, { amount_cents: 1, reason: 'warm-up' }, { 'Idempotency-Key': `warm-${index}` }));

    // The floor: the same session, permission and JSON path without a write (one payment read by id).
    const baseline = await phase(REQUESTS, CLIENTS, async (index) => {
      const response = await app.request(`/transactions/${FIRST_PAYMENT + index}`, { headers });
      await response.arrayBuffer();
      return response.status;
    });
    let doubleClicksOff = 0;
    const distinct = await phase(REQUESTS, CLIENTS, async (index) => {
      const send = () => post(`/transactions/${FIRST_PAYMENT + index}/refunds`, { amount_cents: 100, reason: 'Bench' }, { 'Idempotency-Key': `d-${index}` });
      if (index % 10 !== 0) return send();
      const [first, second] = await Promise.all([send(), send()]);
      if (first !== 200 || second !== 200) doubleClicksOff++;
      return first;
    });
    const hot = await phase(REQUESTS, CLIENTS, (index) =>
      post(`/transactions/${HOT_PAYMENT}/refunds`, { amount_cents: 1, reason: 'Bench hot' }, { 'Idempotency-Key': `h-${index}` }),
    );
    let doubleTapsOff = 0;
    const redeem = await phase(REQUESTS, CLIENTS, async (index) => {
      const send = () =>
        post('/promo-codes/redeem', { code: 'HOTCODE', location_id: 1, license_plate: `R${index}`, quote_cents: 1000 }, { 'Idempotency-Key': `r-${index}` });
      if (index % 10 !== 0) return send();
      // A checkout's retry racing its first try: one use counted, both answered.
      const [first, second] = await Promise.all([send(), send()]);
      if (first !== 200 || second !== 200) doubleTapsOff++;
      return first;
    });
    const capped = await phase(2 * CAP, CLIENTS, (index) =>
      post('/promo-codes/redeem', { code: 'CAPPED', location_id: 1, license_plate: `C${index}`, quote_cents: 1000 }, { 'Idempotency-Key': `c-${index}` }),
    );
    const invariants = await checkInvariants(db);
    const counted = await db.query<{ distinct_refunds: number; hot_refunds: number; hot_redemptions: number }>(
      `SELECT (SELECT count(*)::int FROM refunds WHERE reason = 'Bench') AS distinct_refunds,
              (SELECT count(*)::int FROM refunds WHERE transaction_id = $1) AS hot_refunds,
              (SELECT count(*)::int FROM promo_redemptions r JOIN promo_codes p USING (promo_code_id) WHERE p.code = 'HOTCODE') AS hot_redemptions`,
      [HOT_PAYMENT],
    );
    const violations = {
      ...invariants,
      double_clicks_not_replayed: doubleClicksOff,
      double_taps_not_replayed: doubleTapsOff,
      hot_redemptions_not_once_each: Math.abs(counted.rows[0]!.hot_redemptions - REQUESTS),
      distinct_refunds_not_once_each: Math.abs(counted.rows[0]!.distinct_refunds - REQUESTS),
      hot_refunds_not_once_each: Math.abs(counted.rows[0]!.hot_refunds - REQUESTS),
      capped_successes_not_cap: Math.abs(capped.ok - CAP),
      failed_requests: distinct.other + hot.other + redeem.other + capped.other + distinct.refused + hot.refused + redeem.refused,
    };
    const invariantViolations = Object.values(violations).reduce((sum, value) => sum + value, 0);

    const row = (name: string, result: PhaseResult) => [
      name,
      result.requests,
      result.ok,
      result.refused,
      result.perSecond,
      result.nodeCpuMsPerRequest,
      result.postgresCpuMsPerRequest,
      round(result.latencyMs.p50),
      round(result.latencyMs.p95),
      round(result.latencyMs.max),
    ];
    console.info(
      formatTable(
        ['phase', 'requests', '200', '400/409', 'per s', 'Node CPU ms/req', 'PG CPU ms/req', 'p50 ms', 'p95 ms', 'max ms'],
        [row('read one payment (floor)', baseline), row('refund, distinct payments', distinct), row('refund, one hot payment', hot), row('redeem, one hot code', redeem), row(`redeem, capped at ${CAP}`, capped)],
      ),
    );
    console.info(formatTable(['invariant', 'violations'], Object.entries(violations)));
    const results = {
      refundsPerSecDistinct: distinct.perSecond,
      refundsPerSecHot: hot.perSecond,
      redeemPerSecHot: redeem.perSecond,
      refundP95Ms: round(distinct.latencyMs.p95),
      refundHotP95Ms: round(hot.latencyMs.p95),
      redeemP95Ms: round(redeem.latencyMs.p95),
      invariantViolations,
      violations,
      phases: { baseline, distinct, hot, redeem, capped },
      settings: { requests: REQUESTS, clients: CLIENTS, pool: POOL, cap: CAP, postgres: cluster?.version ?? 'DATABASE_URL' },
      machine: machineInfo(),
    };
    const goals = [
      goalAtLeast('refunds/s, distinct payments', 'refundsPerSecDistinct', results.refundsPerSecDistinct, 1000, '/s'),
      goalAtLeast('redemptions/s, hot code', 'redeemPerSecHot', results.redeemPerSecHot, 500, '/s'),
      goalAtMost('refund p95, distinct payments', 'refundP95Ms', results.refundP95Ms, 50, 'ms'),
      goalAtMost('invariant violations', 'invariantViolations', invariantViolations, 0, ''),
    ];
    console.info(formatGoals(goals));
    console.info(`Wrote ${await writeResults('money', { ...results, goals })}`);
  } finally {
    await db.close();
    cluster?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
