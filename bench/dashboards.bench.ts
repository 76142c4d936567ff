/**
 * Dashboards at operator scale (`npm run bench:dashboards`): 5,000,000 payments over 50 locations and the 365 days
 * before a fixed "now" (2026-11-02T17:00Z: the data, the API's clock and the live payments all use it, so "today" is
 * the same whatever the hour of the run), on PostgreSQL and PGlite. Every speed goal is a ratio against a baseline
 * run beside it in alternating pairs (docs/benchmarks.md); every figure's key names its engine.
 *
 * 1. Load (bench/dashboards/load.ts): payments generated inside the database, the rollups built by one aggregate.
 * 2. Server time (`settled365dP95<Engine>`, `realtimeSummaryP95<Engine>`, ≤ 1.5×): GET /dashboards/settled over the
 *    365 days ending yesterday and GET /dashboards/realtime as a superuser (every location), through the real app
 *    (`app.request`: auth, session, permission, validation, the queries, JSON), p95 of --reps requests; baseline: the
 *    same requests' own SQL (recorded in a warm-up request) run directly on the same pool with the same concurrency.
 * 3. Rollup upkeep (`insertsWithRollups<Engine>`, ≥ 0.75×): payments inserted one statement each (as the API writes
 *    them) into a database with the full schema, the rollup triggers on (figure) and off (baseline).
 * 4. Live paint (`livePaintP95<Engine>`, ≤ 1.15×): bench/dashboards/live-paint.ts; a payment never painted counts at
 *    3,000 ms and fails the check "every payment painted".
 *
 *   npm run bench:dashboards                 # 5,000,000 payments on both engines, 5 pairs
 *   npm run bench:dashboards -- --smoke      # 10,000 payments, 2 pairs
 *
 * Options: --rows N; --pglite-rows N (default: --rows; the PGlite figures' names then say their size); --pairs K (5);
 * --reps N (requests a side per pair, 40); --live N (payments a pair, 120); --inserts N (a side per pair, 400);
 * --no-postgres (PGlite alone: without it, missing PostgreSQL fails the run), --no-pglite, --no-live.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { SESSION_HEADER } from '../src/contract/envelope';
import { createApp } from '../server/app';
import type { Db } from '../server/db/db';
import { openPgliteDatabase } from '../server/db/pglite';
import { openPostgresDatabase } from '../server/db/postgres';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from '../server/testing/test-api';
import { absolute, startBenchRun } from './lib/bench-run';
import { launchChromium } from './lib/chromium';
import { flag } from './lib/cli';
import { alternate, ratioFigure, type RatioFigure } from './lib/method';
import { startThrowawayPostgres, type ThrowawayPostgres } from './lib/postgres';
import { benchPgliteImage } from './lib/pglite-image';
import { RESULTS_DIR } from './lib/report';
import type { AbsoluteFigure, Check } from './lib/result-schema';
import { requirePostgres, runSize, wholeOption } from './lib/run-options';
import { buildBenchPagesInto, serveStatic } from './lib/serve';
import { recordingDb, replay } from './lib/sql-replay';
import { percentile, round } from './lib/stats';
import { bulkLoad, DAYS, prepare } from './dashboards/load';
import { LIVE_CEILING_MS, measureLivePaint } from './dashboards/live-paint';

const ROWS = wholeOption('rows', 5_000_000, 10_000);
const PGLITE_ROWS = wholeOption('pglite-rows', ROWS, ROWS);
const PAIRS = wholeOption('pairs', 5, 2);
const REPS = wholeOption('reps', 40, 10);
const LIVE = wholeOption('live', 120, 10);
const INSERTS = wholeOption('inserts', 400, 100);
const USE_POSTGRES = !flag('no-postgres');
const USE_PGLITE = !flag('no-pglite');
const LIVE_PAINT = !flag('no-live');
if (!USE_POSTGRES && !USE_PGLITE) throw new Error('--no-postgres and --no-pglite leave nothing to measure');
requirePostgres('dashboards');
const SIZE = runSize(['rows', 'pglite-rows', 'pairs', 'reps', 'live', 'inserts'], ['no-postgres', 'no-pglite', 'no-live']);

/** The fixed "now" of the data, the API's clock and the live payments. */
const NOW = new Date('2026-11-02T17:00:00Z');
const SUPERUSER = 'superuser@example.com';

type Engine = 'postgres' | 'pglite';
const KEY: Record<Engine, string> = { postgres: 'Postgres', pglite: 'Pglite' };
const LABEL: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };
const rowsOf = (engine: Engine) => (engine === 'postgres' ? ROWS : PGLITE_ROWS);
/** "PostgreSQL, 5,000,000 payments": every figure says its engine and its size. */
const onEngine = (engine: Engine) => `${LABEL[engine]}, ${rowsOf(engine).toLocaleString('en-US')} payments`;
const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

function appOver(db: Db, corsOrigins: string[] = []) {
  return createApp({
    db,
    verifyIdToken: fakeVerifyIdToken,
    session: { secret: TEST_SESSION_SECRET, ttlSeconds: 24 * 3600 },
    corsOrigins,
    now: () => NOW,
    logError: (message, error) => console.error(message, error),
  });
}

async function sessionOf(app: ReturnType<typeof appOver>, email: string) {
  const response = await app.request('/auth/permissions', {
    method: 'POST',
    headers: { Authorization: `Bearer ${idTokenFor(email)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const body = (await response.json()) as { data: { userData: { token: string } } };
  return body.data.userData.token;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const daysBefore = (date: Date, days: number) => new Date(date.getTime() - days * 86_400_000);
const yesterday = daysBefore(NOW, 1);

/** The timed requests: settled over the 365 days ending yesterday, and the real-time summary. */
const REQUESTS = {
  settled365d: {
    path: `/dashboards/settled?from=${day(daysBefore(yesterday, 364))}&to=${day(yesterday)}`,
    name: 'settled dashboard, 365 days, p95',
  },
  realtimeSummary: { path: '/dashboards/realtime', name: 'real-time summary, p95' },
} as const;
type RequestName = keyof typeof REQUESTS;

/** Server time: p95 of REPS requests through the app against p95 of REPS replays of their recorded SQL. */
async function measureServerTime(engine: Engine, db: Db, name: RequestName) {
  const recorder = recordingDb(db);
  const app = appOver(recorder.db);
  const headers = { Authorization: `Bearer ${idTokenFor(SUPERUSER)}`, [SESSION_HEADER]: await sessionOf(app, SUPERUSER) };
  const send = async () => {
    const started = performance.now();
    const { result, queries } = await recorder.capture(async () => {
      const response = await app.request(REQUESTS[name].path, { headers });
      return { status: response.status, body: await response.text() };
    });
    if (result.status !== 200) throw new Error(`${LABEL[engine]} ${REQUESTS[name].path}: ${result.status} ${result.body.slice(0, 200)}`);
    return { ms: performance.now() - started, body: result.body, queries };
  };
  await send(); // warm-up: session, plans
  const recorded = await send();
  const p95Of = async (once: () => Promise<number>) => {
    const samples: number[] = [];
    for (let i = 0; i < REPS; i++) samples.push(await once());
    return percentile(samples.sort((a, b) => a - b), 95);
  };
  const pairs = await alternate(
    PAIRS,
    () => p95Of(async () => (await send()).ms),
    () => p95Of(() => replay(db, recorded.queries)),
  );
  const figure = ratioFigure(
    {
      key: `${name}P95${KEY[engine]}`,
      name: `${REQUESTS[name].name}, ${onEngine(engine)}, superuser (50 locations)`,
      figureLabel: 'request → last byte through the app (app.request)',
      baselineLabel: 'its own SQL run directly on the same pool',
      unit: 'ms',
      goal: { op: '<=', target: 1.5 },
    },
    pairs,
  );
  return { figure, body: recorded.body };
}

/** Inserts per second, one payment a statement, the rollup triggers on (figure) and off (baseline). */
async function measureInserts(engine: Engine, db: Db): Promise<RatioFigure> {
  let i = 0;
  const block = async () => {
    const started = performance.now();
    for (let k = 0; k < INSERTS; k++, i++) {
      await db.query(
        `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee, payment_method,
           processor_reference, settled_date)
         VALUES ($1, $2, $3::timestamptz, $3::timestamptz + interval '1 hour', $4, 0.66, 'card', $5, NULL)`,
        [1 + (i % 50), `INS${String(i).padStart(6, '0')}`, new Date(NOW.getTime() - (i % 3600) * 1000).toISOString(), (2 + (i % 58)).toFixed(2), `ch_bench_${i}`],
      );
    }
    return INSERTS / ((performance.now() - started) / 1000);
  };
  const pairs = await alternate(PAIRS, block, async () => {
    await db.exec('ALTER TABLE transactions DISABLE TRIGGER USER');
    try {
      return await block();
    } finally {
      await db.exec('ALTER TABLE transactions ENABLE TRIGGER USER');
    }
  });
  return ratioFigure(
    {
      key: `insertsWithRollups${KEY[engine]}`,
      name: `inserts/s with the rollup triggers, ${LABEL[engine]} (full schema, 50 locations, ${INSERTS} a side per pair)`,
      figureLabel: 'one INSERT a payment, rollup triggers on',
      baselineLabel: 'the same INSERTs, triggers off',
      unit: 'inserts/s',
      goal: { op: '>=', target: 0.75 },
    },
    pairs,
  );
}

/** A database with the schema and 50 locations only, for the inserts. */
async function insertsDatabase(engine: Engine, postgres: ThrowawayPostgres | undefined): Promise<Db> {
  if (engine === 'pglite') return openPgliteDatabase(undefined, await benchPgliteImage());
  const admin = openPostgresDatabase({ connectionString: postgres!.url.replace(/lpa_dashboards$/, 'postgres'), max: 1 });
  await admin.exec('DROP DATABASE IF EXISTS lpa_inserts');
  await admin.exec('CREATE DATABASE lpa_inserts');
  await admin.close();
  return openPostgresDatabase({ connectionString: postgres!.url.replace(/lpa_dashboards$/, 'lpa_inserts'), max: 2 });
}

async function main() {
  const run = startBenchRun({
    bench: 'dashboards',
    title: `Dashboards, ${ROWS.toLocaleString('en-US')} payments over 50 locations and ${DAYS} days`,
    size: SIZE,
    options: { rows: ROWS, pgliteRows: PGLITE_ROWS, pairs: PAIRS, reps: REPS, live: LIVE, inserts: INSERTS, now: NOW.toISOString(), postgres: USE_POSTGRES, pglite: USE_PGLITE, livePaint: LIVE_PAINT },
  });
  const dbs: Partial<Record<Engine, Db>> = {};
  const loads: Record<string, unknown> = {};
  let postgres: ThrowawayPostgres | undefined;
  let chromium: string | null = null;
  const pgliteDir = mkdtempSync(path.join(tmpdir(), 'lpa-bench-dash-'));
  try {
    if (USE_POSTGRES) {
      postgres = await startThrowawayPostgres('lpa_dashboards', ['shared_buffers=512MB', 'max_wal_size=4GB']);
      dbs.postgres = openPostgresDatabase({ connectionString: postgres.url, max: 4 });
    }
    if (USE_PGLITE) dbs.pglite = await openPgliteDatabase(path.join(pgliteDir, 'data'), await benchPgliteImage());
    const engines = Object.keys(dbs) as Engine[];
    for (const engine of engines) {
      log(`${LABEL[engine]}: loading ${rowsOf(engine).toLocaleString('en-US')} payments`);
      await prepare(dbs[engine]!);
      loads[engine] = { rows: rowsOf(engine), seconds: await bulkLoad(dbs[engine]!, rowsOf(engine), NOW) };
      log(`  loaded: ${JSON.stringify(loads[engine])}`);
    }

    const checks: Check[] = [];
    const ratios: RatioFigure[] = [];
    const absolutes: AbsoluteFigure[] = [];
    const settledBodies: Partial<Record<Engine, string>> = {};
    for (const engine of engines) {
      for (const name of Object.keys(REQUESTS) as RequestName[]) {
        const { figure, body } = await measureServerTime(engine, dbs[engine]!, name);
        ratios.push(figure);
        if (name === 'settled365d') settledBodies[engine] = body;
        log(`${figure.key}: ${round(figure.figure.median)} ms through the app, ${round(figure.baseline.median)} ms its SQL; ratio ${round(figure.median)}`);
      }
    }
    if (settledBodies.postgres && settledBodies.pglite && ROWS === PGLITE_ROWS) {
      checks.push({ name: 'settled 365 days: the same answer on PostgreSQL and PGlite', pass: settledBodies.postgres === settledBodies.pglite });
    }

    for (const engine of engines) {
      const db = await insertsDatabase(engine, postgres);
      try {
        await prepare(db);
        ratios.push(await measureInserts(engine, db));
        log(`${ratios.at(-1)!.key}: ${round(ratios.at(-1)!.figure.median)} / ${round(ratios.at(-1)!.baseline.median)} inserts/s`);
      } finally {
        await db.close();
      }
    }

    const live: Record<string, unknown> = {};
    if (LIVE_PAINT) {
      log('Live paint in headless Chromium');
      const dist = path.join(RESULTS_DIR, 'dist-dashboards');
      await buildBenchPagesInto(['dashboard-live'], dist, [react()]);
      const pages = await serveStatic(dist);
      const browser = await launchChromium();
      chromium = browser.version();
      try {
        for (const engine of engines) {
          const db = dbs[engine]!;
          const app = appOver(db, [pages.origin]);
          const result = await measureLivePaint({
            db,
            app,
            sessionToken: await sessionOf(app, SUPERUSER),
            email: SUPERUSER,
            pageOrigin: pages.origin,
            browser,
            now: NOW,
            pairs: PAIRS,
            paymentsPerPair: LIVE,
          });
          const committed = result.committed.reduce((sum, count) => sum + count, 0);
          const unpainted = result.unpainted.reduce((sum, count) => sum + count, 0);
          ratios.push(
            ratioFigure(
              {
                key: `livePaintP95${KEY[engine]}`,
                name: `payment → live paint p95, ${onEngine(engine)} (${LIVE} payments a pair at 20/s; unpainted at ${LIVE_CEILING_MS} ms)`,
                figureLabel: 'commit → first frame counting it, headless Chromium',
                baselineLabel: 'poll interval + summary p50 (its reads, direct) + one frame',
                unit: 'ms',
                goal: { op: '<=', target: 1.15 },
              },
              result.pairs,
            ),
          );
          absolutes.push(absolute(`livePaintUnpainted${KEY[engine]}`, `payments never painted within ${LIVE_CEILING_MS} ms, ${LABEL[engine]}`, 'payments', unpainted, { op: '<=', target: 0 }));
          checks.push({ name: `every payment painted, ${LABEL[engine]}`, pass: unpainted === 0, detail: `${committed - unpainted} of ${committed}` });
          live[engine] = { committed: result.committed, unpainted: result.unpainted, baseline: result.baseline, latenciesMs: result.latenciesMs.map((pair) => pair.map((value) => (value === null ? null : round(value)))) };
          log(`livePaintP95${KEY[engine]}: ${round(ratios.at(-1)!.figure.median)} ms, baseline ${round(ratios.at(-1)!.baseline.median)} ms, ${unpainted} unpainted`);
        }
      } finally {
        await browser.close();
        await pages.close();
      }
    }

    await run.finish({
      checks,
      ratios,
      absolutes,
      versions: { postgres: postgres?.version ?? null, chromium },
      details: { locations: 50, days: DAYS, load: loads, live },
    });
  } finally {
    for (const db of Object.values(dbs)) await db.close().catch(() => undefined);
    postgres?.stop();
    rmSync(pgliteDir, { recursive: true, force: true });
  }
}

await main();
