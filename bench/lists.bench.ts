/**
 * Transaction lists at operator scale (`npm run bench:lists`): 1,000,000 payments over 50 locations (a year of
 * history from the seed's generator, server/db/seed/payment-history.ts), on PostgreSQL and on PGlite in the same run.
 * Every speed goal is a ratio against a baseline run beside it (docs/benchmarks.md):
 *
 * 1. List pages (`listPageP95Postgres`, `listPageP95Pglite`, ≤ 1.25×): a fixed, seeded mix of searches (plate
 *    fragments of 2–7 characters, last 4 phone digits, date ranges, a location, a status, an amount, every sort, pages
 *    up to the 10,000-row limit) as three personas (a superuser, a head office granted all 50 locations one by one, a
 *    regional manager with 5), each sent through the real app (`createApp` with the tests' fake ID-token verifier,
 *    `app.request`: auth, session, permission lookup, validation, the search's queries, JSON) and timed from the
 *    request to the last byte; the figure is the p95 of one round over the mix. Baseline: the same round, each
 *    request's own SQL (recorded in a warm-up round) replayed through the same pool with the same concurrency
 *    (bench/lib/sql-replay.ts). Both engines must answer byte-for-byte the same JSON.
 * 2. CSV export (`csvRowsPerSecPostgres`, ≥ 0.5×): every row as the superuser, over HTTP from the API bundled into one
 *    file on plain Node (as deployed) in a separate process. Baseline: `COPY (the same columns, join and order) TO
 *    STDOUT` into a sink that counts lines. The API process's peak VmRSS while it streams (`csvPeakRssMBPostgres`,
 *    ≤ 200 MB) is sampled every 50 ms. PGlite's export, and PostgreSQL's under tsx (as `npm start` runs it), once each
 *    for context.
 *
 *   npm run bench:lists                      # 1,000,000 payments, 5 pairs (seeding takes a couple of minutes)
 *   npm run bench:lists -- --smoke           # 10,000 payments, 2 pairs
 *
 * Options: --rows N (default 1000000) over --days D (365) ending at a fixed "now"; --seed S; --variants N (searches
 * per kind and persona, 6); --pairs K (5); --no-postgres, --no-pglite, --no-lists, --no-csv; --pglite-dir DIR and
 * --database-url URL (keep the seeded data and reuse it); --pg-shared-buffers SIZE (1GB); --explain (EXPLAIN
 * (ANALYZE, BUFFERS) the slowest request of each kind: bench/results/lists-explain.txt).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Paged } from '../src/contract/lists';
import type { TransactionRow } from '../src/contract/transactions';
import { openPgliteDatabase } from '../server/db/pglite';
import { openPostgresDatabase } from '../server/db/postgres';
import { createRandom } from '../server/db/seed/prng';
import { bundleApiProcess } from './lib/api-process';
import { absolute, smoke, startBenchRun } from './lib/bench-run';
import { flag, option } from './lib/cli';
import { alternate, ratioFigure, type RatioFigure } from './lib/method';
import { OPERATOR_LOCATION_COUNT, PERSONAS } from './lib/operator-data';
import { startThrowawayPostgres, type ThrowawayPostgres } from './lib/postgres';
import { benchPgliteImage } from './lib/pglite-image';
import { formatTable, RESULTS_DIR } from './lib/report';
import { requirePostgres, runSize, wholeOption } from './lib/run-options';
import { replay, type RecordedQuery } from './lib/sql-replay';
import { percentile, round, summarize } from './lib/stats';
import type { Check } from './lib/result-schema';
import { copyRowsPerSec, measureCsv, type CsvResult } from './lists/csv';
import { prepareEngine, type Engine, type EngineName } from './lists/engines';
import { buildMix, KINDS, samplePayments, type ListQuery, type MixOptions } from './lists/mix';

// ---------------------------------------------------------------------------------------------------------------
// Options

const ROWS = wholeOption('rows', 1_000_000, 10_000, 1000);
const DAYS = wholeOption('days', 365, 365);
const SEED = option('seed') ?? '1';
const VARIANTS = wholeOption('variants', 6, 1);
const PAIRS = wholeOption('pairs', 5, 2);
const USE_POSTGRES = !flag('no-postgres');
const USE_PGLITE = !flag('no-pglite');
const LISTS = !flag('no-lists');
const CSV = !flag('no-csv');
const EXPLAIN = flag('explain');
const PG_SHARED_BUFFERS = option('pg-shared-buffers') ?? '1GB';
const PGLITE_DIR = option('pglite-dir');
const DATABASE_URL = option('database-url');
if (!USE_POSTGRES && !USE_PGLITE) throw new Error('--no-postgres and --no-pglite leave nothing to measure');
if (USE_POSTGRES && !DATABASE_URL) requirePostgres('lists');
const SIZE = runSize(['rows', 'days', 'seed', 'variants', 'pairs'], ['no-postgres', 'no-pglite', 'no-lists', 'no-csv']);

/** A fixed "now" for the data and the API's clock, so that every run has the same rows and the same mix. */
const NOW = new Date('2026-11-02T17:00:00Z');
const MIX: MixOptions = { rows: ROWS, days: DAYS, seed: SEED, variants: VARIANTS, now: NOW };
const MB = 1e6;
const COUNT = ROWS.toLocaleString('en-US');

const started = performance.now();
const step = (message: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`);
const ENGINE_KEY: Record<EngineName, string> = { postgres: 'Postgres', pglite: 'Pglite' };

// ---------------------------------------------------------------------------------------------------------------
// List pages: one round over the mix through the app (the figure), or its SQL replayed (the baseline)

interface Timed {
  index: number;
  ms: number;
  total: number;
  body: string;
  queries: RecordedQuery[];
}

async function timedRequest(engine: Engine, mix: readonly ListQuery[], index: number): Promise<Timed> {
  const query = mix[index]!;
  const requestStarted = performance.now();
  const { result, queries } = await engine.recorder.capture(async () => {
    const response = await engine.app.request(query.path, { headers: engine.headers[query.persona] });
    return { status: response.status, body: await response.text() };
  });
  const ms = performance.now() - requestStarted;
  if (result.status !== 200) throw new Error(`${engine.label} ${query.path} as ${query.persona}: ${result.status} ${result.body.slice(0, 300)}`);
  const data = (JSON.parse(result.body) as { data: Paged<TransactionRow> }).data;
  return { index, ms, total: data.total + (data.totalIsLowerBound ? 1 : 0), body: result.body, queries };
}

function shuffledIndexes(count: number, seed: string): number[] {
  const random = createRandom(seed);
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = random.int(0, index);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

const cpuMsNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Per engine: each request's recorded SQL (from the second warm-up round) and the figure rounds' timings. */
interface ListRun {
  recorded: RecordedQuery[][];
  appMs: number[][];
  replayMs: number[][];
  totals: number[];
  slowest: Map<string, Timed>;
}

async function measureListPages(engine: Engine, mix: readonly ListQuery[], run: ListRun) {
  const pairs = await alternate(
    PAIRS,
    async (pair) => {
      const cpuBefore = cpuMsNow();
      const ms: number[] = [];
      for (const index of shuffledIndexes(mix.length, `${SEED}:lists:pair:${pair}`)) {
        const timed = await timedRequest(engine, mix, index);
        ms.push(timed.ms);
        (run.appMs[index] ??= []).push(timed.ms);
        const kind = mix[index]!.kind;
        if (timed.ms > (run.slowest.get(kind)?.ms ?? -1)) run.slowest.set(kind, timed);
      }
      return { value: percentile(ms.sort((a, b) => a - b), 95), cpuMs: cpuMsNow() - cpuBefore };
    },
    async (pair) => {
      const cpuBefore = cpuMsNow();
      const ms: number[] = [];
      for (const index of shuffledIndexes(mix.length, `${SEED}:lists:pair:${pair}`)) {
        const replayed = await replay(engine.db, run.recorded[index]!);
        ms.push(replayed);
        (run.replayMs[index] ??= []).push(replayed);
      }
      return { value: percentile(ms.sort((a, b) => a - b), 95), cpuMs: cpuMsNow() - cpuBefore };
    },
  );
  return ratioFigure(
    {
      key: `listPageP95${ENGINE_KEY[engine.name]}`,
      name: `list page p95, ${engine.label}, ${COUNT} payments (${mix.length} searches a round)`,
      figureLabel: 'request → last byte through the app (app.request)',
      baselineLabel: "the request's own SQL replayed through the same pool",
      unit: 'ms',
      goal: { op: '<=', target: 1.25 },
    },
    pairs,
  );
}

/** Two warm-up rounds: the first compares the engines' answers, the second records each request's SQL. */
async function warmUp(engines: readonly Engine[], mix: readonly ListQuery[]) {
  const mismatches: string[] = [];
  const runs = new Map<EngineName, ListRun>(engines.map((engine) => [engine.name, { recorded: [], appMs: [], replayMs: [], totals: [], slowest: new Map() }]));
  for (const index of mix.keys()) {
    const bodies = [];
    for (const engine of engines) bodies.push((await timedRequest(engine, mix, index)).body);
    if (bodies.length === 2 && bodies[0] !== bodies[1]) mismatches.push(`${mix[index]!.persona} ${mix[index]!.path}`);
  }
  for (const engine of engines) {
    const run = runs.get(engine.name)!;
    for (const index of mix.keys()) {
      const timed = await timedRequest(engine, mix, index);
      run.recorded[index] = timed.queries;
      run.totals[index] = timed.total;
    }
  }
  return { mismatches, runs };
}

// ---------------------------------------------------------------------------------------------------------------
// CSV: the export through the API process against COPY TO STDOUT, alternated; PGlite and tsx once for context

interface CsvOutcome {
  /** Null without PostgreSQL (--no-postgres): COPY's baseline needs it. */
  figure: RatioFigure | null;
  runs: CsvResult[];
  copyRows: number[];
  context: Partial<Record<'pglite' | 'postgres (tsx)', CsvResult>>;
}

async function measureCsvExports(engines: readonly Engine[]): Promise<CsvOutcome> {
  await bundleApiProcess();
  const postgres = engines.find((engine) => engine.name === 'postgres');
  const context: CsvOutcome['context'] = {};
  const runs: CsvResult[] = [];
  const copyRows: number[] = [];
  let figure: RatioFigure | null = null;
  if (postgres && 'databaseUrl' in postgres.target) {
    const url = postgres.target.databaseUrl;
    const pairs = await alternate(
      PAIRS,
      async () => {
        const result = await measureCsv(postgres, 'node', NOW);
        runs.push(result);
        step(`CSV through the API: ${Math.round(result.rowsPerSec).toLocaleString('en-US')} rows/s, RSS peak ${result.peakRssMB.toFixed(0)} MB`);
        return result.rowsPerSec;
      },
      async () => {
        const copy = await copyRowsPerSec(url);
        copyRows.push(copy.rows);
        step(`COPY TO STDOUT: ${Math.round(copy.rowsPerSec).toLocaleString('en-US')} rows/s`);
        return copy.rowsPerSec;
      },
    );
    figure = ratioFigure(
      {
        key: 'csvRowsPerSecPostgres',
        name: `CSV export rows/s, PostgreSQL, ${COUNT} payments`,
        figureLabel: 'GET /transactions/export from the bundled API process, over HTTP',
        baselineLabel: 'COPY (same columns, join, order) TO STDOUT into a null sink',
        unit: 'rows/s',
        goal: { op: '>=', target: 0.5 },
      },
      pairs,
    );
    if (!smoke) context['postgres (tsx)'] = await measureCsv(postgres, 'tsx', NOW);
  }
  const pglite = engines.find((engine) => engine.name === 'pglite');
  if (pglite && !smoke) context.pglite = await measureCsv(pglite, 'node', NOW);
  return { figure, runs, copyRows, context };
}

// ---------------------------------------------------------------------------------------------------------------
// EXPLAIN of the slowest request of each kind (--explain)

async function explainSlowest(engines: readonly Engine[], runs: Map<EngineName, ListRun>, mix: readonly ListQuery[]): Promise<string> {
  const sections: string[] = [];
  for (const engine of engines) {
    for (const [kind, slowest] of runs.get(engine.name)!.slowest) {
      const query = mix[slowest.index]!;
      sections.push(`=== ${engine.label} · ${kind} · ${query.persona} ${query.path} · ${round(slowest.ms)} ms`);
      for (const recorded of slowest.queries.filter((call) => /transactions t/.test(call.sql))) {
        // Per-node timing costs PGlite (WebAssembly) more than the query itself: its plans show rows and totals only.
        const options = engine.name === 'pglite' ? 'ANALYZE, BUFFERS, TIMING OFF' : 'ANALYZE, BUFFERS';
        const { rows } = await engine.db.query<Record<string, string>>(`EXPLAIN (${options}) ${recorded.sql}`, recorded.params);
        sections.push(`-- ${round(recorded.endedAt - recorded.startedAt)} ms in the request; params ${JSON.stringify(recorded.params)}`);
        sections.push(recorded.sql.replace(/\s+/g, ' ').trim(), ...rows.map((row) => Object.values(row)[0]!), '');
      }
    }
  }
  return sections.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Run

/** Per kind: the app's and the replay's p50/p95 over every figure round, and the median match count (context). */
function kindTable(engines: readonly Engine[], runs: Map<EngineName, ListRun>, mix: readonly ListQuery[]) {
  return KINDS.map((kind) => {
    const indexes = [...mix.keys()].filter((index) => mix[index]!.kind === kind);
    const perEngine = Object.fromEntries(
      engines.map((engine) => {
        const run = runs.get(engine.name)!;
        const app = summarize(indexes.flatMap((index) => run.appMs[index] ?? []));
        const sql = summarize(indexes.flatMap((index) => run.replayMs[index] ?? []));
        return [engine.name, { appP50: round(app.p50), appP95: round(app.p95), sqlP50: round(sql.p50), sqlP95: round(sql.p95) }];
      }),
    );
    const totals = indexes.map((index) => runs.get(engines[0]!.name)!.totals[index]!);
    return { kind, searches: indexes.length, medianMatches: summarize(totals).p50, ...perEngine };
  });
}

function printKinds(table: ReturnType<typeof kindTable>, engines: readonly Engine[]) {
  const names = engines.map((engine) => engine.name);
  console.log(`\nList pages by kind, ms (app = through app.request; sql = its SQL replayed), ${COUNT} payments:\n`);
  console.log(
    formatTable(
      ['kind', 'n', ...names.flatMap((name) => [`${name} app p50`, `app p95`, `sql p50`, `sql p95`]), 'matches (median)'],
      table.map((row) => {
        const cells = names.flatMap((name) => {
          const figures = (row as unknown as Record<string, { appP50: number; appP95: number; sqlP50: number; sqlP95: number }>)[name]!;
          return [figures.appP50, figures.appP95, figures.sqlP50, figures.sqlP95];
        });
        return [row.kind, row.searches, ...cells, row.medianMatches];
      }),
    ),
  );
}

async function openEngines(pgliteDir: string, onPostgres: (postgres: ThrowawayPostgres) => void): Promise<Engine[]> {
  const seedOptions = { rows: ROWS, days: DAYS, seed: SEED, now: NOW, step };
  const preparing: Promise<Engine>[] = [];
  if (USE_POSTGRES) {
    let url = DATABASE_URL;
    if (!url) {
      const postgres = await startThrowawayPostgres('lpa_bench', [`shared_buffers=${PG_SHARED_BUFFERS}`]);
      onPostgres(postgres);
      url = postgres.url;
      step(`PostgreSQL: ${postgres.version}, throwaway cluster at ${new URL(url).host}, shared_buffers ${PG_SHARED_BUFFERS}`);
    }
    const db = openPostgresDatabase({ connectionString: url });
    preparing.push(prepareEngine('postgres', db, { databaseUrl: url }, 'PostgreSQL', seedOptions));
  }
  if (USE_PGLITE) {
    const reused = PGLITE_DIR !== undefined && existsSync(PGLITE_DIR);
    if (reused) step(`PGlite: files at ${PGLITE_DIR}`);
    const db = await openPgliteDatabase(pgliteDir, reused ? undefined : await benchPgliteImage());
    preparing.push(prepareEngine('pglite', db, { pgliteDir }, 'PGlite', seedOptions));
  }
  // Both seed at once: PostgreSQL works in its own processes while PGlite works in this one.
  return Promise.all(preparing);
}

async function main() {
  const run = startBenchRun({
    bench: 'lists',
    title: `Transaction lists, ${COUNT} payments over ${OPERATOR_LOCATION_COUNT} locations`,
    size: SIZE,
    options: { rows: ROWS, days: DAYS, seed: SEED, variants: VARIANTS, pairs: PAIRS, now: NOW.toISOString(), postgres: USE_POSTGRES, pglite: USE_PGLITE, lists: LISTS, csv: CSV, pgSharedBuffers: DATABASE_URL ? null : PG_SHARED_BUFFERS },
  });
  let postgres: ThrowawayPostgres | null = null;
  const temporaryPglite = PGLITE_DIR ? null : mkdtempSync(path.join(tmpdir(), 'lpa-bench-pglite-'));
  const engines: Engine[] = [];
  try {
    const seedStarted = performance.now();
    engines.push(...(await openEngines(PGLITE_DIR ?? temporaryPglite!, (started_) => (postgres = started_))));
    const seedWallSeconds = (performance.now() - seedStarted) / 1000;
    const reference = engines[0]!;
    const mix = buildMix(await samplePayments(reference.db, reference.firstTransactionId, MIX), MIX);

    const checks: Check[] = [];
    const ratios: RatioFigure[] = [];
    let kinds: ReturnType<typeof kindTable> = [];
    if (LISTS) {
      step(`list pages: ${mix.length} searches (${KINDS.length} kinds × ${Object.keys(PERSONAS).length} personas × ${VARIANTS}), 2 warm-up rounds, ${PAIRS} pairs`);
      const { mismatches, runs } = await warmUp(engines, mix);
      if (engines.length === 2) {
        checks.push({ name: 'list answers identical on PostgreSQL and PGlite', pass: mismatches.length === 0, detail: `${mix.length - mismatches.length} of ${mix.length}${mismatches.length ? `; first: ${mismatches[0]}` : ''}` });
      }
      for (const engine of engines) {
        ratios.push(await measureListPages(engine, mix, runs.get(engine.name)!));
        step(`${engine.label}: list page p95 ${round(ratios.at(-1)!.figure.median)} ms through the app, ${round(ratios.at(-1)!.baseline.median)} ms replayed`);
      }
      kinds = kindTable(engines, runs, mix);
      printKinds(kinds, engines);
      if (EXPLAIN) {
        const file = path.join(RESULTS_DIR, 'lists-explain.txt');
        await writeFile(file, await explainSlowest(engines, runs, mix));
        step(`EXPLAIN (ANALYZE, BUFFERS) of the slowest request per kind: ${file}`);
      }
    }

    // The CSV runs in its own API process: this process lets go of the databases first (PGlite has one owner).
    for (const engine of engines) await engine.db.close();
    const absolutes = [];
    let csvDetails: unknown = null;
    if (CSV) {
      const csv = await measureCsvExports(engines);
      if (csv.figure) ratios.push(csv.figure);
      const rowsSeen = [...csv.runs.map((result) => result.rows), ...csv.copyRows, ...Object.values(csv.context).map((result) => result.rows)];
      checks.push({ name: 'every CSV export and COPY holds every payment', pass: rowsSeen.every((rows) => rows === ROWS), detail: `row counts ${[...new Set(rowsSeen)].join(', ')} of ${ROWS}` });
      if (csv.runs.length) {
        const peak = Math.max(...csv.runs.map((result) => result.peakRssMB));
        absolutes.push(absolute('csvPeakRssMBPostgres', 'API resident memory (VmRSS) while exporting, PostgreSQL, bundled; the highest of the runs', 'MB', peak, { op: '<=', target: 200 }));
      }
      for (const [name, result] of Object.entries(csv.context)) {
        const key = name === 'pglite' ? 'Pglite' : 'PostgresTsx';
        absolutes.push(absolute(`csvRowsPerSec${key}`, `CSV export rows/s, ${name} (once, context)`, 'rows/s', result.rowsPerSec));
        absolutes.push(absolute(`csvPeakRssMB${key}`, `API resident memory while exporting, ${name} (once, context)`, 'MB', result.peakRssMB));
      }
      csvDetails = { runs: csv.runs, context: csv.context, megabytes: round((csv.runs[0]?.bytes ?? 0) / MB) };
    }
    const postgresVersion = (postgres as ThrowawayPostgres | null)?.version ?? engines.find((engine) => engine.name === 'postgres')?.version ?? null;
    await run.finish({
      checks,
      ratios,
      absolutes,
      versions: { postgres: postgresVersion },
      details: {
        engines: Object.fromEntries(engines.map((engine) => [engine.name, engine.version])),
        seeding: { wallSeconds: round(seedWallSeconds), ...Object.fromEntries(engines.map((engine) => [engine.name, engine.seedSeconds === null ? 'reused' : round(engine.seedSeconds)])) },
        searchesPerRound: mix.length,
        kinds,
        csv: csvDetails,
      },
    });
  } finally {
    for (const engine of engines) await engine.db.close().catch(() => undefined);
    (postgres as ThrowawayPostgres | null)?.stop();
    if (temporaryPglite) rmSync(temporaryPglite, { recursive: true, force: true });
  }
}

await main();
