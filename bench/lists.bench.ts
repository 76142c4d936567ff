/**
 * Transaction lists at operator scale (`npm run bench:lists`): 1,000,000 payments over 50 locations (a year of
 * history from the seed's generator, server/db/seed/payment-history.ts), on PostgreSQL and on PGlite in the same run.
 *
 * 1. List pages: a fixed, seeded mix of searches (plate fragments of 2–7 characters, last 4 phone digits, date ranges,
 *    a location, a status, an amount, every sort, pages up to the 10,000-row limit) as three personas (a superuser,
 *    a head office granted all 50 locations one by one, a regional manager with 5), each sent through the real app
 *    (`createApp` with the tests' fake ID-token verifier, `app.request`: auth, session, permission lookup, validation,
 *    both queries, JSON) and timed from the request to the last byte of the body. The two engines take turns on
 *    every query, so both meet the same machine load; their answers must be identical.
 * 2. CSV export of every row as the superuser, over HTTP from the API in a separate Node process, whose resident
 *    memory (VmRSS in /proc/<pid>/status) is sampled every 50 ms while it streams: the server bundled into one file
 *    on plain Node, as deployed (PostgreSQL, then PGlite), and once more on PostgreSQL under tsx, as `npm start`
 *    runs it.
 *
 * Prints tables, writes bench/results/lists.json (and lists-explain.txt with --explain). Reports goals; never fails.
 *
 *   npm run bench:lists                              # 1,000,000 rows (seeding takes a couple of minutes)
 *   npm run bench:lists -- --rows 100000             # a quick run
 *   npm run bench:lists -- --explain                 # also EXPLAIN (ANALYZE, BUFFERS) the slowest query of each kind
 *
 * Options:
 *   --rows N            payments (default 1000000), over --days days (default 365) ending at a fixed "now"
 *   --seed S            generator and mix seed (default 1)
 *   --variants N        searches per kind and persona (default 6)
 *   --rounds N          measured rounds over the mix, after one warm-up round (default 3)
 *   --no-postgres, --no-pglite, --no-lists, --no-csv
 *   --pglite-dir DIR    keep PGlite's files there and reuse them when they hold the same data (default: a temporary
 *                       folder, deleted at the end)
 *   --database-url URL  use this PostgreSQL database (reused when it holds the same data, else it must be empty)
 *                       instead of a throwaway cluster
 *   --pg-shared-buffers SIZE  of the throwaway cluster (default 1GB: a quarter of a 4 GB database server, as managed
 *                       PostgreSQL sizes it; the 128MB default holds a fifth of this data). Otherwise its defaults,
 *                       durability off (fsync, synchronous_commit, full_page_writes: it is thrown away).
 *   --explain           EXPLAIN (ANALYZE, BUFFERS) the queries of the slowest request of each kind per engine
 *                       (bench/results/lists-explain.txt; on PGlite with TIMING OFF, whose overhead there is large)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LIST_ROW_LIMIT, type Paged } from '../src/contract/lists';
import { SESSION_HEADER } from '../src/contract/envelope';
import type { TransactionRow } from '../src/contract/transactions';
import { createApp } from '../server/app';
import type { Db, QueryResult } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPgliteDatabase } from '../server/db/pglite';
import { openPostgresDatabase } from '../server/db/postgres';
import { createRandom, type Random } from '../server/db/seed/prng';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from '../server/testing/test-api';
import { bundleApiProcess, startApiProcess, type ApiRuntime } from './lib/api-process';
import { flag, option } from './lib/cli';
import { HANDFUL_LOCATIONS, OPERATOR_LOCATION_COUNT, PERSONAS, seedOperatorDatabase, type Persona } from './lib/operator-data';
import { startThrowawayPostgres, type ThrowawayPostgres } from './lib/postgres';
import { formatGoals, formatTable, goalAtLeast, goalAtMost, machineInfo, RESULTS_DIR, writeResults, type Goal } from './lib/report';
import { round, summarize, type Summary } from './lib/stats';

// ---------------------------------------------------------------------------------------------------------------
// Options

const wholeOption = (name: string, fallback: number, min: number) => {
  const value = Number(option(name) ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${option(name)}`);
  return value;
};
const ROWS = wholeOption('rows', 1_000_000, 1000);
const DAYS = wholeOption('days', 365, 1);
const SEED = option('seed') ?? '1';
const VARIANTS = wholeOption('variants', 6, 1);
const ROUNDS = wholeOption('rounds', 3, 1);
const USE_POSTGRES = !flag('no-postgres');
const USE_PGLITE = !flag('no-pglite');
const LISTS = !flag('no-lists');
const CSV = !flag('no-csv');
const EXPLAIN = flag('explain');
const PG_SHARED_BUFFERS = option('pg-shared-buffers') ?? '1GB';
const PGLITE_DIR = option('pglite-dir');
const DATABASE_URL = option('database-url');
if (!USE_POSTGRES && !USE_PGLITE) throw new Error('--no-postgres and --no-pglite leave nothing to measure');

/** A fixed "now" for the data and the API's clock, so that every run has the same rows and the same mix. */
const NOW = new Date('2026-11-02T17:00:00Z');
const DAY_MS = 24 * 3600 * 1000;
const MB = 1e6;
const RSS_SAMPLE_MS = 50;

const GOALS = { listPageP95MsPostgres: 20, listPageP95MsPglite: 60, csvRowsPerSecPostgres: 100_000, csvPeakRssMB: 200 };

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const step = (message: string) => console.log(`[${elapsed()}] ${message}`);
const load = () => machineInfo().loadAverage;

// ---------------------------------------------------------------------------------------------------------------
// Engines: the same data on each, the app over each, every database call of a request recorded

type EngineName = 'postgres' | 'pglite';

interface RecordedQuery {
  sql: string;
  params: unknown[];
  ms: number;
}

/** The queries of the request in flight (requests run one at a time). */
let recording: RecordedQuery[] | null = null;

/** The app's database, with each query's wall time recorded; nothing in server/ changes. */
function recorded(db: Db): Db {
  return {
    ...db,
    query: async <T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
      const into = recording;
      const queryStarted = performance.now();
      try {
        return await db.query<T>(sql, params);
      } finally {
        into?.push({ sql, params: params ? [...params] : [], ms: performance.now() - queryStarted });
      }
    },
  };
}

interface Engine {
  name: EngineName;
  label: string;
  db: Db;
  app: ReturnType<typeof createApp>;
  headers: Record<Persona, Record<string, string>>;
  seedSeconds: number | null;
  firstTransactionId: number;
  /** `SELECT version()`, shortened. */
  version: string;
  /** For the CSV process: where the API finds the same database. */
  target: { databaseUrl: string } | { pgliteDir: string };
}

/** The data's fingerprint: a reused database must hold exactly what this run would seed. */
async function seededRows(db: Db): Promise<{ count: number; first: number } | null> {
  const { rows } = await db.query<{ exists: boolean }>(`SELECT to_regclass('transactions') IS NOT NULL AS exists`);
  if (!rows[0]?.exists) return null;
  const counted = await db.query<{ count: number; first: number | null }>(
    'SELECT count(*)::float8 AS count, min(transaction_id)::float8 AS first FROM transactions',
  );
  const { count, first } = counted.rows[0]!;
  return count === 0 ? null : { count, first: first ?? 0 };
}

async function prepare(name: EngineName, db: Db, target: Engine['target'], label: string): Promise<Engine> {
  let seedSeconds: number | null = null;
  let present = await seededRows(db);
  if (present && present.count !== ROWS) {
    throw new Error(`${label} already holds ${present.count} payments, not ${ROWS}: give an empty database or folder.`);
  }
  if (present) {
    // Reused: bring the schema up to date (a new migration's indexes are built here) and refresh statistics.
    const applied = await migrate(db);
    await db.exec('ANALYZE');
    step(`${label}: reusing ${present.count.toLocaleString('en-US')} payments${applied.length ? `, applied ${applied.join(', ')}` : ''}`);
  } else {
    step(`${label}: seeding ${ROWS.toLocaleString('en-US')} payments over ${OPERATOR_LOCATION_COUNT} locations and ${DAYS} days`);
    let reported = 0;
    const result = await seedOperatorDatabase(db, {
      rows: ROWS,
      days: DAYS,
      seed: SEED,
      now: NOW,
      onProgress: (written, total) => {
        if (written - reported >= total / 4 || written === total) {
          reported = written;
          step(`${label}: ${written.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} written`);
        }
      },
    });
    seedSeconds = result.seconds.total;
    step(
      `${label}: seeded in ${result.seconds.total.toFixed(1)} s (history ${result.seconds.history.toFixed(1)} s incl. ` +
        `index builds, ${result.history.refunds.toLocaleString('en-US')} refunds; VACUUM ANALYZE ${result.seconds.vacuum.toFixed(1)} s)`,
    );
    present = (await seededRows(db))!;
  }
  const app = createApp({
    db: recorded(db),
    verifyIdToken: fakeVerifyIdToken,
    session: { secret: TEST_SESSION_SECRET, ttlSeconds: 24 * 3600 },
    corsOrigins: [],
    now: () => NOW,
    logError: (message, error) => console.error(`[${label} api] ${message}:`, error),
  });
  const headers = {} as Engine['headers'];
  for (const persona of Object.keys(PERSONAS) as Persona[]) {
    const email = PERSONAS[persona];
    const authorization = `Bearer ${idTokenFor(email)}`;
    const response = await app.request('/auth/permissions', {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json()) as { data?: { userData: { token: string } }; message?: string };
    if (!body.data) throw new Error(`${label}: sign-in of ${email} failed: ${body.message ?? response.status}`);
    headers[persona] = { Authorization: authorization, [SESSION_HEADER]: body.data.userData.token };
  }
  const { rows: versions } = await db.query<{ version: string }>('SELECT version()');
  const version = (versions[0]?.version ?? '').replace(/ on .*$/, '');
  return { name, label, db, app, headers, seedSeconds, firstTransactionId: present.first, target, version };
}

// ---------------------------------------------------------------------------------------------------------------
// The mix

const KINDS = [
  'newest',
  'plate 2',
  'plate 3',
  'plate 4-5',
  'plate 6-7',
  'phone last 4',
  'date range',
  'date range + plate',
  'location',
  'status',
  'amount',
  'sort',
  'deep page',
] as const;
type Kind = (typeof KINDS)[number];

interface ListQuery {
  kind: Kind;
  persona: Persona;
  path: string;
}

interface SampleRow {
  transaction_id: number;
  location_id: number;
  license_plate: string;
  phone_last4: string | null;
  amount_cents: number;
}

/** Stored payments to search for: seeded ids across the whole table. */
async function samplePayments(db: Db, firstId: number): Promise<SampleRow[]> {
  const random = createRandom(`${SEED}:lists:sample`);
  const ids = Array.from({ length: 4000 }, () => firstId + Math.floor(random.next() * ROWS));
  const { rows } = await db.query<SampleRow>(
    `SELECT transaction_id::float8 AS transaction_id, location_id, license_plate, phone_last4,
            (payment_amount * 100)::integer AS amount_cents
       FROM transactions WHERE transaction_id = ANY($1::bigint[]) ORDER BY transaction_id`,
    [ids],
  );
  return rows;
}

const dayText = (daysBeforeNow: number) => new Date(NOW.getTime() - daysBeforeNow * DAY_MS).toISOString().slice(0, 10);
const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A fragment of a stored plate as staff would type it: sometimes in lower case. */
function fragmentOf(random: Random, plate: string, length: number): string {
  const letters = plate.replace(/[\s-]/g, '');
  const size = Math.min(length, letters.length);
  const start = random.int(0, letters.length - size);
  const fragment = letters.slice(start, start + size);
  return random.chance(0.3) ? fragment.toLowerCase() : fragment;
}

function buildMix(samples: readonly SampleRow[]): ListQuery[] {
  const queries: ListQuery[] = [];
  for (const persona of Object.keys(PERSONAS) as Persona[]) {
    const scope = persona === 'handful' ? HANDFUL_LOCATIONS : null;
    const inScope = samples.filter((row) => !scope || scope.includes(row.location_id));
    const withPhone = inScope.filter((row) => row.phone_last4);
    const locationIds = scope ?? Array.from({ length: OPERATOR_LOCATION_COUNT }, (_, index) => index + 1);
    for (const kind of KINDS) {
      for (let variant = 0; variant < VARIANTS; variant++) {
        const random = createRandom(`${SEED}:lists:${persona}:${kind}:${variant}`);
        const sample = random.pick(inScope);
        const params: Record<string, string | number> = {};
        const range = (spans: readonly number[]) => {
          const span = random.pick(spans);
          const end = random.int(0, DAYS - span);
          params.from = dayText(end + span - 1);
          params.to = dayText(end);
        };
        switch (kind) {
          case 'newest':
            params.pageSize = random.pick([25, 50, 100]);
            params.page = random.pick([1, 1, 1, 2, 3]);
            break;
          case 'plate 2':
            params.plate = fragmentOf(random, sample.license_plate, 2);
            break;
          case 'plate 3':
            params.plate = fragmentOf(random, sample.license_plate, 3);
            break;
          case 'plate 4-5':
            params.plate = fragmentOf(random, sample.license_plate, random.int(4, 5));
            break;
          case 'plate 6-7':
            params.plate = fragmentOf(random, sample.license_plate, random.int(6, 7));
            break;
          case 'phone last 4':
            params.phone = random.pick(withPhone).phone_last4!;
            break;
          case 'date range':
            range([1, 7, 31]);
            params.page = random.pick([1, 1, 2]);
            break;
          case 'date range + plate':
            range([31, 92]);
            params.plate = fragmentOf(random, sample.license_plate, 3);
            break;
          case 'location':
            params.locationId = random.pick(locationIds);
            params.page = random.pick([1, 2, 5]);
            break;
          case 'status':
            params.status = random.pick(['refunded', 'partially_refunded']);
            break;
          case 'amount':
            params.amount = dollars(sample.amount_cents);
            break;
          case 'sort':
            params.sort = random.pick(['amount', 'license_plate', 'transaction_id', 'payment_time']);
            params.dir = random.pick(['asc', 'desc']);
            break;
          case 'deep page': {
            // The last page the API serves: rows 9,901–10,000 (or 9,951–, 9,976–).
            const pageSize = random.pick([25, 50, 100]);
            params.pageSize = pageSize;
            params.page = LIST_ROW_LIMIT / pageSize;
            const sort = random.pick(['payment_time', 'amount', 'license_plate', 'transaction_id']);
            if (sort !== 'payment_time') params.sort = sort;
            params.dir = random.pick(['asc', 'desc']);
            break;
          }
        }
        const search = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
        queries.push({ kind, persona, path: `/transactions?${search}` });
      }
    }
  }
  return queries;
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Sample {
  query: ListQuery;
  engine: EngineName;
  ms: number;
  dbMs: number;
  total: number;
  queries: RecordedQuery[];
}

async function timedRequest(engine: Engine, query: ListQuery): Promise<{ sample: Sample; body: string }> {
  recording = [];
  const requestStarted = performance.now();
  const response = await engine.app.request(query.path, { headers: engine.headers[query.persona] });
  const body = await response.text();
  const ms = performance.now() - requestStarted;
  const queries = recording;
  recording = null;
  if (response.status !== 200) throw new Error(`${engine.label} ${query.path} as ${query.persona}: ${response.status} ${body.slice(0, 300)}`);
  const data = (JSON.parse(body) as { data: Paged<TransactionRow> }).data;
  // Every database call of the request, one after the other: the staff lookup of the session check, then the
  // search's (the date window, the page).
  const dbMs = queries.reduce((sum, recorded) => sum + recorded.ms, 0);
  return { sample: { query, engine: engine.name, ms, dbMs, total: data.total + (data.totalIsLowerBound ? 1 : 0), queries }, body };
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

async function measureLists(engines: readonly Engine[], mix: readonly ListQuery[]) {
  const samples: Sample[] = [];
  const mismatches: string[] = [];
  for (let roundIndex = 0; roundIndex <= ROUNDS; roundIndex++) {
    const order = shuffled(mix, createRandom(`${SEED}:lists:round:${roundIndex}`));
    const roundStarted = performance.now();
    for (const [index, query] of order.entries()) {
      // The engines take turns going first, so that neither always meets a warmer or colder machine.
      const turn = (index + roundIndex) % 2 === 0 ? engines : [...engines].reverse();
      const answers: string[] = [];
      for (const engine of turn) {
        const { sample, body } = await timedRequest(engine, query);
        if (roundIndex > 0) samples.push(sample);
        answers.push(body);
      }
      if (roundIndex === 0 && answers.length === 2 && answers[0] !== answers[1]) {
        mismatches.push(`${query.persona} ${query.path}`);
      }
    }
    step(`${roundIndex === 0 ? 'warm-up round' : `round ${roundIndex}`}: ${order.length} searches per engine in ${((performance.now() - roundStarted) / 1000).toFixed(1)} s (load ${load().join(' ')})`);
  }
  return { samples, mismatches };
}

interface CsvResult {
  rows: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  rowsPerSec: number;
  idleRssMB: number;
  peakRssMB: number;
  /** VmHWM at the end: the highest RSS since the process started, startup included. */
  hwmMB: number;
  rssSamples: number;
}

/** The CSV runs: PostgreSQL as deployed and as `npm start` runs it; PGlite as deployed. */
const CSV_RUNS: readonly { name: CsvRun; engine: EngineName; runtime: ApiRuntime }[] = [
  { name: 'postgres', engine: 'postgres', runtime: 'node' },
  { name: 'postgres (tsx)', engine: 'postgres', runtime: 'tsx' },
  { name: 'pglite', engine: 'pglite', runtime: 'node' },
];
type CsvRun = 'postgres' | 'postgres (tsx)' | 'pglite';

async function measureCsv(engine: Engine, runtime: ApiRuntime): Promise<CsvResult> {
  const api = await startApiProcess({ ...engine.target, now: NOW.toISOString() }, runtime);
  try {
    const headers = await api.headersFor(PERSONAS.all);
    // A small request first, so the idle figure is that of a server that has answered (code loaded, pool open).
    await (await fetch(`${api.url}/transactions?pageSize=10`, { headers })).text();
    const idleRssMB = api.memory().rssMB;
    let peakRssMB = idleRssMB;
    let rssSamples = 0;
    const sampler = setInterval(() => {
      peakRssMB = Math.max(peakRssMB, api.memory().rssMB);
      rssSamples++;
    }, RSS_SAMPLE_MS);
    // node:http rather than fetch: the client should cost the 2 shared cores as little as a browser's download would.
    const exportStarted = performance.now();
    let bytes = 0;
    let lines = 0;
    let firstByteMs = 0;
    await new Promise<void>((resolve, reject) => {
      const request = httpGet(`${api.url}/transactions/export`, { headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${engine.label} export: ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - exportStarted;
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        response.on('end', resolve);
        response.on('error', reject);
      });
      request.on('error', reject);
    });
    const seconds = (performance.now() - exportStarted) / 1000;
    clearInterval(sampler);
    const { rssMB, hwmMB } = api.memory();
    peakRssMB = Math.max(peakRssMB, rssMB);
    const rows = lines - 1; // the header
    return { rows, bytes, seconds, firstByteMs, rowsPerSec: rows / seconds, idleRssMB, peakRssMB, hwmMB, rssSamples };
  } finally {
    await api.stop();
  }
}

async function explainSlowest(engines: readonly Engine[], samples: readonly Sample[]): Promise<string> {
  const sections: string[] = [];
  for (const engine of engines) {
    for (const kind of KINDS) {
      const slowest = samples
        .filter((sample) => sample.engine === engine.name && sample.query.kind === kind)
        .sort((a, b) => b.ms - a.ms)[0];
      if (!slowest) continue;
      sections.push(`=== ${engine.label} · ${kind} · ${slowest.query.persona} ${slowest.query.path} · ${round(slowest.ms)} ms`);
      for (const query of slowest.queries.filter((recorded) => /transactions t/.test(recorded.sql))) {
        // Per-node timing costs PGlite (WebAssembly) more than the query itself: its plans show rows and totals only.
        const options = engine.name === 'pglite' ? 'ANALYZE, BUFFERS, TIMING OFF' : 'ANALYZE, BUFFERS';
        const { rows } = await engine.db.query<Record<string, string>>(`EXPLAIN (${options}) ${query.sql}`, query.params);
        sections.push(`-- ${round(query.ms)} ms in the request; params ${JSON.stringify(query.params)}`);
        sections.push(query.sql.replace(/\s+/g, ' ').trim());
        sections.push(...rows.map((row) => Object.values(row)[0]!));
        sections.push('');
      }
    }
  }
  return sections.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Run

async function main() {
  const loadAtStart = load();
  step(`machine: ${machineInfo().cpus} cores, load ${loadAtStart.join(' ')}`);
  let postgres: ThrowawayPostgres | null = null;
  const temporaryPglite = PGLITE_DIR ? null : mkdtempSync(path.join(tmpdir(), 'lpa-bench-pglite-'));
  const pgliteDir = PGLITE_DIR ?? temporaryPglite!;
  const engines: Engine[] = [];
  try {
    const seedStarted = performance.now();
    const preparing: Promise<Engine>[] = [];
    if (USE_POSTGRES) {
      let url = DATABASE_URL;
      if (!url) {
        postgres = await startThrowawayPostgres('lpa_bench', [`shared_buffers=${PG_SHARED_BUFFERS}`]);
        url = postgres.url;
        step(`PostgreSQL: ${postgres.version}, throwaway cluster at ${new URL(url).host}, shared_buffers ${PG_SHARED_BUFFERS}`);
      }
      const db = openPostgresDatabase({ connectionString: url });
      preparing.push(prepare('postgres', db, { databaseUrl: url }, 'PostgreSQL'));
    }
    if (USE_PGLITE) {
      if (PGLITE_DIR && existsSync(PGLITE_DIR)) step(`PGlite: files at ${PGLITE_DIR}`);
      const db = await openPgliteDatabase(pgliteDir);
      preparing.push(prepare('pglite', db, { pgliteDir }, 'PGlite'));
    }
    // Both seed at once: PostgreSQL works in its own processes while PGlite works in this one.
    engines.push(...(await Promise.all(preparing)));
    const seedWallSeconds = (performance.now() - seedStarted) / 1000;
    const reference = engines[0]!;

    const samplesOfData = await samplePayments(reference.db, reference.firstTransactionId);
    const mix = buildMix(samplesOfData);
    const loadBeforeLists = load();
    if (LISTS) step(`list pages: ${mix.length} searches (${KINDS.length} kinds × ${Object.keys(PERSONAS).length} personas × ${VARIANTS}), 1 warm-up + ${ROUNDS} rounds, load ${loadBeforeLists.join(' ')}`);
    const { samples, mismatches } = LISTS ? await measureLists(engines, mix) : { samples: [], mismatches: [] };
    const loadAfterLists = load();

    let explainFile: string | null = null;
    if (EXPLAIN) {
      explainFile = path.join(RESULTS_DIR, 'lists-explain.txt');
      await writeFile(explainFile, await explainSlowest(engines, samples));
      step(`EXPLAIN (ANALYZE, BUFFERS) of the slowest request per kind: ${explainFile}`);
    }

    // The CSV runs in its own API process: this process lets go of the database first (PGlite has one owner).
    for (const engine of engines) await engine.db.close();
    const csv: Partial<Record<CsvRun, CsvResult>> = {};
    const loadBeforeCsv = load();
    if (CSV) {
      await bundleApiProcess();
      for (const run of CSV_RUNS) {
        const engine = engines.find((candidate) => candidate.name === run.engine);
        if (!engine) continue;
        step(`${run.name}: CSV export of every payment from a separate API process (${run.runtime})`);
        const result = await measureCsv(engine, run.runtime);
        csv[run.name] = result;
        step(
          `${run.name}: ${result.rows.toLocaleString('en-US')} rows, ${(result.bytes / MB).toFixed(1)} MB in ${result.seconds.toFixed(1)} s ` +
            `(${Math.round(result.rowsPerSec).toLocaleString('en-US')} rows/s); RSS idle ${result.idleRssMB.toFixed(0)} MB, peak ${result.peakRssMB.toFixed(0)} MB`,
        );
      }
    }
    const loadAtEnd = load();
    report({ engines, samples, mismatches, csv, seedWallSeconds, explainFile, loads: { loadAtStart, loadBeforeLists, loadAfterLists, loadBeforeCsv, loadAtEnd } });
    await writeResultsFile({ engines, samples, mismatches, csv, seedWallSeconds, explainFile, loads: { loadAtStart, loadBeforeLists, loadAfterLists, loadBeforeCsv, loadAtEnd } });
  } finally {
    for (const engine of engines) await engine.db.close().catch(() => undefined);
    postgres?.stop();
    if (temporaryPglite) rmSync(temporaryPglite, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

interface Outcome {
  engines: readonly Engine[];
  samples: readonly Sample[];
  mismatches: readonly string[];
  csv: Partial<Record<CsvRun, CsvResult>>;
  seedWallSeconds: number;
  explainFile: string | null;
  loads: Record<string, number[]>;
}

const summaryOf = (samples: readonly Sample[], pick: (sample: Sample) => number = (sample) => sample.ms): Summary =>
  summarize(samples.map(pick));
const of = (samples: readonly Sample[], engine: EngineName, kind?: Kind, persona?: Persona) =>
  samples.filter((sample) => sample.engine === engine && (!kind || sample.query.kind === kind) && (!persona || sample.query.persona === persona));
const cell = (summary: Summary | null, field: 'p50' | 'p95' | 'max') => (summary && summary.n > 0 ? round(summary[field]) : '—');
const median = (values: readonly number[]) => summarize(values).p50;

function headline(outcome: Outcome) {
  const overall = (engine: EngineName) => {
    const samples = of(outcome.samples, engine);
    return samples.length > 0 ? summaryOf(samples) : null;
  };
  const postgres = overall('postgres');
  const pglite = overall('pglite');
  return {
    listPageP50MsPostgres: postgres ? round(postgres.p50) : null,
    listPageP95MsPostgres: postgres ? round(postgres.p95) : null,
    listPageP50MsPglite: pglite ? round(pglite.p50) : null,
    listPageP95MsPglite: pglite ? round(pglite.p95) : null,
    csvRowsPerSecPostgres: outcome.csv.postgres ? Math.round(outcome.csv.postgres.rowsPerSec) : null,
    csvPeakRssMB: outcome.csv.postgres ? round(outcome.csv.postgres.peakRssMB) : null,
    csvRowsPerSecPglite: outcome.csv.pglite ? Math.round(outcome.csv.pglite.rowsPerSec) : null,
    csvPeakRssMBPglite: outcome.csv.pglite ? round(outcome.csv.pglite.peakRssMB) : null,
    csvRowsPerSecPostgresTsx: outcome.csv['postgres (tsx)'] ? Math.round(outcome.csv['postgres (tsx)'].rowsPerSec) : null,
    csvPeakRssMBPostgresTsx: outcome.csv['postgres (tsx)'] ? round(outcome.csv['postgres (tsx)'].peakRssMB) : null,
  };
}

function goalsOf(outcome: Outcome): Goal[] {
  const figures = headline(outcome);
  const goals: Goal[] = [];
  if (figures.listPageP95MsPostgres !== null) {
    goals.push(goalAtMost('list page p95, PostgreSQL', 'listPageP95MsPostgres', figures.listPageP95MsPostgres, GOALS.listPageP95MsPostgres, 'ms'));
  }
  if (figures.listPageP95MsPglite !== null) {
    goals.push(goalAtMost('list page p95, PGlite', 'listPageP95MsPglite', figures.listPageP95MsPglite, GOALS.listPageP95MsPglite, 'ms'));
  }
  if (figures.csvRowsPerSecPostgres !== null) {
    goals.push(goalAtLeast('CSV export rows/s, PostgreSQL', 'csvRowsPerSecPostgres', figures.csvRowsPerSecPostgres, GOALS.csvRowsPerSecPostgres, 'rows/s'));
  }
  if (figures.csvPeakRssMB !== null) {
    goals.push(goalAtMost('API resident memory while exporting (PostgreSQL)', 'csvPeakRssMB', figures.csvPeakRssMB, GOALS.csvPeakRssMB, 'MB'));
  }
  return goals;
}

function reportLists(outcome: Outcome): void {
  const names = outcome.engines.map((engine) => engine.name);
  const header = ['kind', 'n', ...names.flatMap((name) => [`${name} p50`, `${name} p95`, `${name} max`, `${name} db p50`]), 'matches (median)'];
  const rows = KINDS.map((kind) => {
    const perEngine = names.map((name) => of(outcome.samples, name, kind));
    return [
      kind,
      perEngine[0]!.length,
      ...perEngine.flatMap((samples) => {
        const summary = summaryOf(samples);
        return [cell(summary, 'p50'), cell(summary, 'p95'), cell(summary, 'max'), cell(summaryOf(samples, (sample) => sample.dbMs), 'p50')];
      }),
      median(perEngine[0]!.map((sample) => sample.total)) > LIST_ROW_LIMIT ? '10,000+' : round(median(perEngine[0]!.map((sample) => sample.total))),
    ];
  });
  const all = names.map((name) => of(outcome.samples, name));
  rows.push([
    'all',
    all[0]!.length,
    ...all.flatMap((samples) => [cell(summaryOf(samples), 'p50'), cell(summaryOf(samples), 'p95'), cell(summaryOf(samples), 'max'), cell(summaryOf(samples, (sample) => sample.dbMs), 'p50')]),
    '',
  ]);
  console.log(`\nList pages, ms from request to last byte through app.request (${ROWS.toLocaleString('en-US')} payments):\n`);
  console.log(formatTable(header, rows));

  console.log('\nBy persona:\n');
  console.log(
    formatTable(
      ['persona', ...names.flatMap((name) => [`${name} p50`, `${name} p95`])],
      (Object.keys(PERSONAS) as Persona[]).map((persona) => [
        `${persona} (${PERSONAS[persona]})`,
        ...names.flatMap((name) => {
          const summary = summaryOf(of(outcome.samples, name, undefined, persona));
          return [cell(summary, 'p50'), cell(summary, 'p95')];
        }),
      ]),
    ),
  );
}

function report(outcome: Outcome): void {
  if (outcome.samples.length > 0) reportLists(outcome);
  if (Object.keys(outcome.csv).length > 0) {
    console.log('\nCSV export of every payment, superuser, from a separate API process (node: bundled; tsx: as npm start):\n');
    console.log(
      formatTable(
        ['run', 'rows', 'MB', 's', 'rows/s', 'first byte ms', 'RSS idle MB', 'RSS peak MB', 'VmHWM MB'],
        Object.entries(outcome.csv).map(([name, result]) => [
          name,
          result.rows,
          round(result.bytes / MB),
          round(result.seconds),
          Math.round(result.rowsPerSec),
          round(result.firstByteMs),
          round(result.idleRssMB),
          round(result.peakRssMB),
          round(result.hwmMB),
        ]),
      ),
    );
  }
  console.log(`\nSeeding: ${outcome.engines.map((engine) => `${engine.label} ${engine.seedSeconds === null ? 'reused' : `${engine.seedSeconds.toFixed(1)} s`}`).join(', ')} (side by side, ${outcome.seedWallSeconds.toFixed(1)} s wall)`);
  console.log(`Answers identical on both engines: ${outcome.mismatches.length === 0 ? 'yes' : `NO (${outcome.mismatches.length}): ${outcome.mismatches.slice(0, 5).join('; ')}`}`);
  const csvRows = Object.values(outcome.csv).map((result) => result.rows);
  if (csvRows.some((rows) => rows !== ROWS)) console.log(`CSV row counts ${csvRows.join(', ')} differ from ${ROWS}!`);
  console.log(`Load average: ${Object.entries(outcome.loads).map(([when, value]) => `${when} ${value.join(' ')}`).join('; ')}`);
  console.log(`\n${formatGoals(goalsOf(outcome))}\n`);
}

async function writeResultsFile(outcome: Outcome): Promise<void> {
  const names = outcome.engines.map((engine) => engine.name);
  const file = await writeResults('lists', {
    rows: ROWS,
    ...headline(outcome),
    goals: goalsOf(outcome),
    options: {
      rows: ROWS,
      days: DAYS,
      seed: SEED,
      variants: VARIANTS,
      rounds: ROUNDS,
      locations: OPERATOR_LOCATION_COUNT,
      now: NOW.toISOString(),
      postgres: DATABASE_URL ? 'given by --database-url' : `throwaway cluster, shared_buffers ${PG_SHARED_BUFFERS}`,
    },
    engines: Object.fromEntries(outcome.engines.map((engine) => [engine.name, engine.version])),
    seeding: {
      wallSeconds: round(outcome.seedWallSeconds),
      ...Object.fromEntries(outcome.engines.map((engine) => [engine.name, engine.seedSeconds === null ? 'reused' : round(engine.seedSeconds)])),
    },
    answersIdentical: outcome.mismatches.length === 0,
    mismatches: outcome.mismatches,
    kinds: KINDS.map((kind) => ({
      kind,
      ...Object.fromEntries(
        names.map((name) => {
          const samples = of(outcome.samples, name, kind);
          const summary = summaryOf(samples);
          return [name, { n: summary.n, p50: round(summary.p50), p95: round(summary.p95), max: round(summary.max), dbP50: round(summaryOf(samples, (sample) => sample.dbMs).p50) }];
        }),
      ),
      medianMatches: median(of(outcome.samples, names[0]!, kind).map((sample) => sample.total)),
    })),
    personas: (Object.keys(PERSONAS) as Persona[]).map((persona) => ({
      persona,
      email: PERSONAS[persona],
      ...Object.fromEntries(
        names.map((name) => {
          const summary = summaryOf(of(outcome.samples, name, undefined, persona));
          return [name, { p50: round(summary.p50), p95: round(summary.p95) }];
        }),
      ),
    })),
    csv: Object.fromEntries(
      Object.entries(outcome.csv).map(([name, result]) => [
        name,
        {
          ...result,
          seconds: round(result.seconds),
          rowsPerSec: Math.round(result.rowsPerSec),
          firstByteMs: round(result.firstByteMs),
          idleRssMB: round(result.idleRssMB),
          peakRssMB: round(result.peakRssMB),
          hwmMB: round(result.hwmMB),
        },
      ]),
    ),
    explainFile: outcome.explainFile,
    machine: { ...machineInfo(), loads: outcome.loads },
    command: `npm run bench:lists${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
  });
  step(`results: ${file}`);
}

await main();
