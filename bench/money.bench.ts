/**
 * Refunds and promo-code redemptions under concurrency (`npm run bench:money`), on a throwaway PostgreSQL cluster
 * (bench/lib/postgres.ts), through the real app (`createApp` with the tests' fake ID-token verifier, `app.request`:
 * session, permission check, validation, the locked transaction, JSON), 32 clients at a time over a pool of 32
 * connections. Three ratio goals (issue 35) against one floor, a read of a payment by id through the same session and
 * permission checks, measured in alternating pairs (bench/lib/method.ts):
 *
 * - refunds on distinct payments ($1.00 each, its own Idempotency-Key) ÷ the floor, requests per second: ≥ 0.8;
 * - redemptions of one hot code (no cap, distinct plates) ÷ the floor, requests per second: ≥ 0.9;
 * - the refunds' p95 ÷ the floor's p95 (the same pairs as the first): ≤ 1.2.
 *
 * In all three phases every 10th operation is sent a second time at once with the same key (a double click, which
 * must replay the first answer; the floor reads twice), and every HTTP request is timed and counted, resends included.
 * Then, once, as context and for the invariants: 1¢ refunds all on one hot payment, and a code capped at --cap redeemed
 * 2 × --cap times (exactly --cap must succeed). The money invariants are checked in SQL at the end (bench/money/
 * invariants.ts); each is a check, and their sum an absolute figure with the goal 0.
 *
 * Options: --requests N operations a phase (default 6,000), --pairs K (default 5), --clients N (default 32), --pool N
 * server connections (default: clients), --cap N (default 500), --database-url URL (an empty PostgreSQL database
 * instead of a throwaway cluster), --smoke (500 operations a phase, 2 pairs, cap 50).
 */
import { SESSION_HEADER } from '../src/contract/envelope';
import { createApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { openPostgresDatabase } from '../server/db/postgres';
import { applyDemoSeed } from '../server/db/seed/demo-seed';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from '../server/testing/test-api';
import { absolute, smoke, startBenchRun, type Size } from './lib/bench-run';
import { option } from './lib/cli';
import { alternate, ratioFigure, type Pair, type RatioSpec } from './lib/method';
import { startThrowawayPostgres, type ThrowawayPostgres } from './lib/postgres';
import type { Check } from './lib/result-schema';
import { checkInvariants } from './money/invariants';
import { runPhase, withDoubleClicks, type PhaseResult, type Timed } from './money/phase';

const REQUESTS = Number(option('requests') ?? (smoke ? 500 : 6000));
const PAIRS = Number(option('pairs') ?? (smoke ? 2 : 5));
const CLIENTS = Number(option('clients') ?? 32);
/**
 * Server-side connections, one per client unless --pool says otherwise. Fewer beat more while a refund cost ~3 ms of
 * PostgreSQL CPU (8 vs 32: 387 vs 305 refunds/s); since migration 015 the two are within the noise of a shared
 * machine (2026-11-24 full runs: 8 → 802, 1,292, 897 refunds/s; 32 → 1,063, 1,008), so the default stays.
 */
const POOL = Number(option('pool') ?? CLIENTS);
const CAP = Number(option('cap') ?? (smoke ? 50 : 500));
const CUSTOM = ['requests', 'pairs', 'clients', 'pool', 'cap', 'database-url'].some((name) => option(name) !== undefined);
const SIZE: Size = smoke ? 'smoke' : CUSTOM ? 'custom' : 'full';
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

/** A phase as a side of a pair: its requests per second, and the CPU of the Node thread and the backends. */
const asSample = (result: PhaseResult) => ({ value: result.requestsPerSecond, cpuMs: result.nodeCpuMs + result.postgresCpuMs });

async function main() {
  const run = startBenchRun({
    bench: 'money',
    title: 'Money: refunds and redemptions against an authenticated read',
    size: SIZE,
    options: { requests: REQUESTS, pairs: PAIRS, clients: CLIENTS, pool: POOL, cap: CAP },
  });
  let cluster: ThrowawayPostgres | undefined;
  const databaseUrl = option('database-url') ?? (cluster = await startThrowawayPostgres('lpa_money')).url;
  const db = openPostgresDatabase({ connectionString: databaseUrl, max: POOL });
  try {
    await migrate(db);
    await applyDemoSeed(db);
    const backendPids = async () =>
      cluster ? (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'`)).rows.map((row) => row.pid) : [];
    console.info(`PostgreSQL ${cluster?.version ?? databaseUrl}; ${PAIRS} pairs of ${REQUESTS} operations a phase, ${CLIENTS} clients over ${POOL} connections`);
    // One payment per distinct refund of every pair (the warm-up refunds 1¢ of the first 200 too).
    await db.query(
      `INSERT INTO transactions (transaction_id, location_id, license_plate, payment_time, expiry_date_time, payment_amount)
       SELECT id, 1 + id % 6, 'BENCH' || (id % 100000), $2::timestamptz, $2::timestamptz + interval '2 hours', 50.00
         FROM generate_series($1::bigint, $1::bigint + $3 - 1) AS id`,
      [FIRST_PAYMENT, NOW.toISOString(), PAIRS * REQUESTS],
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

    let operationsNot200 = 0;
    const phase = (count: number, operation: (index: number, timed: Timed) => Promise<boolean>) =>
      runPhase(count, CLIENTS, backendPids, async (index, timed) => {
        if (!(await operation(index, timed))) operationsNot200++;
      });
    // The floor: the same session, permission and JSON path without a write (one payment read by id), the same shape.
    const floor = () =>
      phase(REQUESTS, (index, timed) =>
        withDoubleClicks(index, () =>
          timed(async () => {
            const response = await app.request(`/transactions/${FIRST_PAYMENT + index}`, { headers });
            await response.arrayBuffer();
            return response.status;
          }),
        ),
      );
    const refunds = (pair: number) =>
      phase(REQUESTS, (index, timed) => {
        const payment = FIRST_PAYMENT + pair * REQUESTS + index;
        return withDoubleClicks(index, () =>
          timed(() => post(`/transactions/${payment}/refunds`, { amount_cents: 100, reason: 'Bench' }, { 'Idempotency-Key': `d-${payment}` })),
        );
      });
    const redemptions = (pair: number) =>
      phase(REQUESTS, (index, timed) =>
        withDoubleClicks(index, () =>
          timed(() =>
            post('/promo-codes/redeem', { code: 'HOTCODE', location_id: 1, license_plate: `R${pair}-${index}`, quote_cents: 1000 }, { 'Idempotency-Key': `r-${pair}-${index}` }),
          ),
        ),
      );

    // Warm-up: the JIT, the pool's connections, the planner's caches (not counted in the invariants' totals).
    await phase(200, async (index, timed) =>
      (await timed(() => post(`/transactions/${FIRST_PAYMENT + index}/refunds`, { amount_cents: 1, reason: 'warm-up' }, { 'Idempotency-Key': `warm-${index}` }))) === 200,
    );
    await phase(200, (index, timed) => timed(async () => (await app.request(`/transactions/${FIRST_PAYMENT + index}`, { headers })).status).then((status) => status === 200));

    const refundRuns: PhaseResult[] = [];
    const refundFloors: PhaseResult[] = [];
    const refundPairs = await alternate(
      PAIRS,
      async (pair) => asSample((refundRuns[pair] = await refunds(pair))),
      async (pair) => asSample((refundFloors[pair] = await floor())),
    );
    const redeemRuns: PhaseResult[] = [];
    const redeemFloors: PhaseResult[] = [];
    const redeemPairs = await alternate(
      PAIRS,
      async (pair) => asSample((redeemRuns[pair] = await redemptions(pair))),
      async (pair) => asSample((redeemFloors[pair] = await floor())),
    );
    const p95Pairs: Pair[] = refundRuns.map((refund, pair) => ({ figure: { value: refund.p95Ms }, baseline: { value: refundFloors[pair]!.p95Ms } }));

    // Context, once: a hot payment's refunds queue on its row lock; the capped code must stop at its cap.
    const hot = await phase(REQUESTS, async (index, timed) =>
      (await timed(() => post(`/transactions/${HOT_PAYMENT}/refunds`, { amount_cents: 1, reason: 'Bench hot' }, { 'Idempotency-Key': `h-${index}` }))) === 200,
    );
    const capped = await runPhase(2 * CAP, CLIENTS, backendPids, async (index, timed) => {
      await timed(() => post('/promo-codes/redeem', { code: 'CAPPED', location_id: 1, license_plate: `C${index}`, quote_cents: 1000 }, { 'Idempotency-Key': `c-${index}` }));
    });

    const invariants = await checkInvariants(db);
    const counted = await db.query<{ distinct_refunds: number; hot_refunds: number; hot_redemptions: number }>(
      `SELECT (SELECT count(*)::int FROM refunds WHERE reason = 'Bench') AS distinct_refunds,
              (SELECT count(*)::int FROM refunds WHERE transaction_id = $1) AS hot_refunds,
              (SELECT count(*)::int FROM promo_redemptions r JOIN promo_codes p USING (promo_code_id) WHERE p.code = 'HOTCODE') AS hot_redemptions`,
      [HOT_PAYMENT],
    );
    const violations: Record<string, number> = {
      ...invariants,
      operations_not_answered_200: operationsNot200,
      distinct_refunds_not_once_each: Math.abs(counted.rows[0]!.distinct_refunds - PAIRS * REQUESTS),
      hot_redemptions_not_once_each: Math.abs(counted.rows[0]!.hot_redemptions - PAIRS * REQUESTS),
      hot_refunds_not_once_each: Math.abs(counted.rows[0]!.hot_refunds - REQUESTS),
      capped_successes_not_cap: Math.abs(capped.ok - CAP),
      capped_refusals_not_the_rest: Math.abs(capped.refused - CAP),
    };
    const checks: Check[] = Object.entries(violations).map(([name, count]) => ({ name: `money invariant: ${name.replaceAll('_', ' ')} = 0`, pass: count === 0, detail: String(count) }));

    const spec = (key: string, name: string, figureLabel: string, unit: string, goal: RatioSpec['goal']): RatioSpec => ({
      key,
      name,
      figureLabel,
      baselineLabel: 'reads of one payment by id, same session and permission path, same double clicks',
      unit,
      goal,
    });
    await run.finish({
      checks,
      ratios: [
        ratioFigure(spec('refundsPerSecond', 'refunds/s on distinct payments ÷ the floor (requests/s, resends counted)', 'refunds, distinct payments', 'requests/s', { op: '>=', target: 0.8 }), refundPairs),
        ratioFigure(spec('redemptionsPerSecond', 'redemptions/s on a hot code ÷ the floor (requests/s, resends counted)', 'redemptions, one hot code', 'requests/s', { op: '>=', target: 0.9 }), redeemPairs),
        ratioFigure(spec('refundP95', "refund p95 ÷ the floor's p95 (every request timed)", 'refunds, distinct payments', 'ms', { op: '<=', target: 1.2 }), p95Pairs),
      ],
      absolutes: [
        absolute('moneyInvariantViolations', 'money invariant violations', 'violations', Object.values(violations).reduce((sum, count) => sum + count, 0), { op: '<=', target: 0 }),
      ],
      details: { violations, phases: { refunds: refundRuns, refundFloors, redemptions: redeemRuns, redemptionFloors: redeemFloors, hot, capped } },
      versions: { postgres: cluster?.version ?? null },
    });
  } finally {
    await db.close();
    cluster?.stop();
  }
}

await main();
