/**
 * Enforcement sync benchmark (`npm run bench:sync`): the real enforcement worker (src/worker/enforcement.worker.ts)
 * in headless Chromium syncs from the real reference API (server/testing/benchmark-api.ts, in this process, on
 * in-memory PGlite) as an enforcement officer: a fresh sync of 100,000 records per type (500,000), a stale sync with
 * nothing new, a purge with "now" 10 days later, and a reload (cold start from the index snapshot). In the same run
 * it measures IndexedDB's per-row ceiling (raw `IDBObjectStore.put` of the same rows, 2000 per transaction) and the
 * reference API alone. Prints tables, writes bench/results/sync.json. It reports goals; it never fails.
 * Chromium runs with a profile on disk (as on a phone), not Playwright's off-the-record context: from Chromium 150
 * the latter keeps IndexedDB in memory, where writes slow down as the store grows (bench/lib/chromium.ts).
 *
 *   npm run bench:sync                      # 500,000 records
 *   npm run bench:sync -- --records 20000   # quick run (records are split evenly over the five types)
 *
 * Options:
 *   --records N           records served to the officer, split evenly over the five types (default 500000)
 *   --seed S              generator seed (default 1)
 *   --no-probe            no search from the page during the fresh sync and its expansion (default: one every
 *                         --probe-interval ms, for searchDuringSyncP95Ms; each costs the worker a search)
 *   --probe-interval MS   the pause between those searches (default 250: an officer typing a plate)
 *   --ceiling-records N   a sample for the per-row ceiling, a quarter per table (default: every stored row)
 *   --indexed-sample N    rows for the ceiling with the spec tables' indexes (default 100000; 0 skips it)
 *   --no-replay           skip the second fresh sync against the same records served from memory (no database)
 *   --no-server-floor     skip paging the API from Node at the end
 *   --postgres            the API on a throwaway PostgreSQL cluster (bench/lib/postgres.ts) instead of PGlite:
 *                         reports timeToSearchableMsPostgres, writes bench/results/sync-postgres.json
 *   --profile             a CPU profile of the enforcement worker during the fresh sync (until the calls return):
 *                         the functions with the most self time are printed, the profile is written to
 *                         bench/results/sync-worker.cpuprofile (the profiler slows the worker: figures are not comparable)
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SYNC_PAGE_SIZE, SYNC_TYPES, PURGE_AFTER_SECONDS, type SyncType } from '../src/contract/enforcement';
import { flag, option } from './lib/cli';
import { calibrateServedCounts, expirySeconds, isServed } from './lib/served-records';
import { SEARCH_CATEGORIES, type SearchCategory } from '../src/worker/enforcement-worker-api';
import { STORE_NAME } from '../src/worker/store';
import { SLOW_PURGE_TRANSACTION_MS } from '../src/worker/store-local';
import {
  generateEnforcementRecords,
  splitRecords,
  type FirstIds,
  type GeneratedRecord,
  type TypeCounts,
} from '../server/db/seed/enforcement-data';
import { demoAccount } from '../server/db/seed/demo-accounts';
import { startApiForBenchmark, type BenchmarkApi } from '../server/testing/benchmark-api';
import { SESSION_HEADER } from '../src/contract/envelope';
import { attachToWorker, echoPageConsole, launchChromiumOnDisk, type WorkerCdpSession } from './lib/chromium';
import { startThrowawayPostgres } from './lib/postgres';
import { formatGoals, formatTable, goalAtLeast, goalAtMost, machineInfo, RESULTS_DIR, writeResults, type Goal } from './lib/report';
import { buildBenchPagesInto, serveStatic } from './lib/serve';
import { round, summarize } from './lib/stats';
import type { RoundOptions, RoundResult, SyncBenchPage } from './pages/sync-page';

// ---------------------------------------------------------------------------------------------------------------
// Options


const RECORDS = Number(option('records') ?? 500_000);
const SEED = option('seed') ?? '1';
const SEARCH_PROBE = !flag('no-probe');
const INDEXED_SAMPLE = Number(option('indexed-sample') ?? 100_000);
/** Rows for the primary-key ceiling, a quarter from each table; 0: every stored row (the default). */
const CEILING_RECORDS = Number(option('ceiling-records') ?? 0);
const SERVER_FLOOR = !flag('no-server-floor');
const REPLAY = !flag('no-replay');
/** Serve from a throwaway PostgreSQL cluster instead of in-process PGlite: `timeToSearchableMsPostgres` (issue 15). */
const POSTGRES = flag('postgres');
const PROFILE = flag('profile');
if (!Number.isInteger(RECORDS) || RECORDS < SYNC_TYPES.length) throw new Error(`--records must be an integer ≥ 5, not ${option('records')}`);

/** A fixed "now" for the data, the API's clock and the sync (the search bench uses the same). */
const NOW_MS = Date.parse('2025-06-16T17:00:00Z');
const NOW_SECONDS = NOW_MS / 1000;
const DAY_MS = 24 * 3600 * 1000;
/** Purge runs with "now" this much later, so that records expired 11–21 days before the sync go. */
const PURGE_ADVANCE_MS = 10 * DAY_MS;
/** The demo enforcement officer: enforcement view at locations 1 and 2 (server/db/seed/demo-accounts.ts). */
const OFFICER = demoAccount('officer');
const LOCATION_IDS = [1, 2];
/** An officer typing: a keystroke, so a search, every quarter second. Before 2026-11-25 one a second during the sync
 * only, ~8 searches, whose p95 was in effect their maximum. */
const PROBE_INTERVAL_MS = Number(option('probe-interval') ?? 250);
const CEILING_BATCH = 2000;
const SCRATCH_DB = 'lpa-bench-sync-ceiling';
const HEAP_SAMPLE_MS = 250;
const MB = 1e6; // decimal MB, the stricter reading of the goal
/** The sync page is built apart from bench/results/dist, so benchmarks run side by side cannot delete each other's. */
const DIST = path.join(RESULTS_DIR, 'dist-sync');

const GOALS = {
  timeToSearchableMs: 10_000,
  durableVsCeiling: 0.9,
  mainThreadLongTasks: 0,
  staleSyncMs: 300,
  coldStartIndexMs: 1000,
  workerHeapMB: 100,
  searchDuringSyncP95Ms: 16,
  searchDuringPurgeP95Ms: 16,
  purgeLongestTransactionMs: 100,
};

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const step = (message: string) => console.log(`[${elapsed()}] ${message}`);

/** The page's harness object; page.evaluate callbacks run in the page and reach it through window. */
type BenchWindow = { syncBench: SyncBenchPage };

// ---------------------------------------------------------------------------------------------------------------
// The data: what the API serves the officer, computed here from the same deterministic generator

type Category = SearchCategory;
const CATEGORY_INDEX = Object.fromEntries(SEARCH_CATEGORIES.map((category, i) => [category, i])) as Record<Category, number>;
const CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];


/** Search splits transactions by expiry at search time; the other types are their own category. */
function categoryOf(item: GeneratedRecord): Category {
  if (item.type === 'valid' || item.type === 'expired') return item.record.expiry_date_time_unix > NOW_SECONDS ? 'valid' : 'expired';
  return item.type;
}

interface Expected {
  servedByType: TypeCounts;
  served: number;
  /** Totals per category for each verification text (known plates, then the 36 single characters). */
  knownPlates: number;
  texts: string[];
  totals: Record<Category, number>[];
  /** The same after the purge. */
  totalsAfterPurge: Record<Category, number>[];
  purgeCutoffSeconds: number;
  purged: number;
  purgedByType: Partial<TypeCounts>;
  /** Records held by type as status() counts them at NOW (valid/expired by expiry). */
  heldByType: TypeCounts;
  probeText: string;
  /** The served records as the API sends them, per type in its order (updated_at, key): for the replay server. */
  replay: Record<SyncType, ReplayRecord[]>;
}

interface ReplayRecord {
  updatedAt: number;
  key: number;
  json: string;
}

const emptyTotals = (): Record<Category, number> => Object.fromEntries(SEARCH_CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;

/**
 * Everything the checks compare with, from the records the API serves (regenerated with the API's own counts and
 * first ids). Every plate holds at least one of A–Z, 0–9, so the 36 one-character searches find every record exactly
 * when their totals per category equal these: a record missing from the index lowers the total of each of its
 * characters.
 */
function expectedFor(counts: TypeCounts, firstIds: FirstIds): Expected {
  const purgeCutoffSeconds = Math.floor((NOW_MS + PURGE_ADVANCE_MS) / 1000) - PURGE_AFTER_SECONDS;
  const plates: string[] = [];
  const categories: number[] = [];
  const purgedFlags: boolean[] = [];
  const servedByType = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
  const heldByType = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
  const purgedByType: Partial<TypeCounts> = {};
  const replay = Object.fromEntries(SYNC_TYPES.map((type) => [type, []])) as unknown as Record<SyncType, ReplayRecord[]>;
  let parkerRow = 0; // monthly_parker_id: the API's surrogate key, in the order the generator made the records
  for (const item of generateEnforcementRecords({ counts, locations: LOCATION_IDS, seed: SEED, now: NOW_MS, firstIds })) {
    if (item.type === 'monthly_parkers') parkerRow++;
    if (!isServed(item, NOW_SECONDS)) continue;
    if (REPLAY) {
      const key = item.type === 'valid' || item.type === 'expired' ? item.record.transaction_id : item.type === 'monthly_parkers' ? parkerRow : item.record.id;
      replay[item.type].push({ updatedAt: item.record.updated_at, key, json: JSON.stringify(item.record) });
    }
    servedByType[item.type]++;
    const category = categoryOf(item);
    heldByType[category === 'valid' ? 'valid' : category === 'expired' ? 'expired' : item.type]++;
    plates.push(item.record.license_plate.toUpperCase());
    categories.push(CATEGORY_INDEX[category]);
    const purged = expirySeconds(item) < purgeCutoffSeconds;
    purgedFlags.push(purged);
    if (purged) purgedByType[item.type] = (purgedByType[item.type] ?? 0) + 1;
  }
  // Known plates: a few served records spread over the types, searched by their whole plate.
  const known = [0.1, 0.3, 0.5, 0.7, 0.9].map((share) => plates[Math.floor(share * (plates.length - 1))]!);
  const texts = [...new Set(known), ...CHARACTERS];
  const totals = texts.map(emptyTotals);
  const totalsAfterPurge = texts.map(emptyTotals);
  for (let i = 0; i < plates.length; i++) {
    const plate = plates[i]!;
    const category = SEARCH_CATEGORIES[categories[i]!]!;
    for (let t = 0; t < texts.length; t++) {
      if (!plate.includes(texts[t]!)) continue;
      totals[t]![category]++;
      if (!purgedFlags[i]) totalsAfterPurge[t]![category]++;
    }
  }
  return {
    servedByType,
    served: plates.length,
    knownPlates: texts.length - CHARACTERS.length,
    texts,
    totals,
    totalsAfterPurge,
    purgeCutoffSeconds,
    purged: purgedFlags.filter(Boolean).length,
    purgedByType,
    heldByType,
    probeText: known[2]!.slice(0, 3),
    replay: Object.fromEntries(
      SYNC_TYPES.map((type) => [type, replay[type].sort((x, y) => x.updatedAt - y.updatedAt || x.key - y.key)]),
    ) as Record<SyncType, ReplayRecord[]>,
  };
}

function totalsMismatches(got: readonly Record<Category, number>[], want: readonly Record<Category, number>[], texts: readonly string[]): string[] {
  const problems: string[] = [];
  texts.forEach((text, i) => {
    for (const category of SEARCH_CATEGORIES) {
      const a = got[i]?.[category];
      const b = want[i]?.[category];
      if (a !== b) problems.push(`"${text}" ${category}: ${a} found, ${b} expected`);
    }
  });
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Worker heap (DevTools protocol on the worker target)

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  /** ArrayBuffer backing stores and external strings: the plate index's typed arrays live here, not in usedSize. */
  backingStorageSize?: number;
}

/** The worker's JS heap in use plus ArrayBuffer backing stores, MB; after a full GC when asked. */
async function heapUsedMB(session: WorkerCdpSession, collectGarbage = false): Promise<number> {
  if (collectGarbage) await session.send('HeapProfiler.collectGarbage');
  const usage = await session.send<HeapUsage>('Runtime.getHeapUsage');
  return (usage.usedSize + (usage.backingStorageSize ?? 0)) / MB;
}

/** Samples the worker's used heap every HEAP_SAMPLE_MS until stopped; never throws. */
function sampleHeap(session: WorkerCdpSession) {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        samples.push(await heapUsedMB(session));
      } catch {
        // a sample lost is no result lost
      }
      await new Promise((resolve) => setTimeout(resolve, HEAP_SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Stops the worker's profiler, writes the profile and prints the functions with the most self time (--profile). */
async function writeWorkerProfile(session: WorkerCdpSession): Promise<void> {
  const { profile } = await session.send<{ profile: CpuProfile }>('Profiler.stop');
  const file = path.join(RESULTS_DIR, 'sync-worker.cpuprofile');
  await writeFile(file, JSON.stringify(profile));
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfMs = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const frame = frameOf.get(id)!;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    selfMs.set(name, (selfMs.get(name) ?? 0) + ms);
  });
  const top = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 30);
  console.log(`worker CPU profile (${path.relative(process.cwd(), file)}), ${round(totalMs)} ms sampled:`);
  console.log(formatTable(['function', 'self ms', 'share'], top.map(([name, ms]) => [name, round(ms), `${round((ms / totalMs) * 100)} %`])));
}

// ---------------------------------------------------------------------------------------------------------------
// Where the time goes: the API's database (timed from outside) and the worker's fetches (its resource timing)

/**
 * Times the reference API's database queries from outside: the app was created with `api.db`, so wrapping that
 * object's `query` sees every query (nothing in server/ changes). Sync page queries are told apart by their SQL.
 */
function timeDatabase(db: BenchmarkApi['db']) {
  const original = db.query.bind(db);
  let pageQueryMs: number[] = [];
  db.query = async <T>(sql: string, params?: readonly unknown[]) => {
    const queryStarted = performance.now();
    try {
      return await original<T>(sql, params);
    } finally {
      if (sql.includes('CROSS JOIN LATERAL')) pageQueryMs.push(performance.now() - queryStarted);
    }
  };
  return {
    take(): number[] {
      const taken = pageQueryMs;
      pageQueryMs = [];
      return taken;
    },
  };
}

const SYNC_PATH = '/enforcement/transactions';

/** The worker keeps 250 resource timing entries by default; a 500k sync makes 255 requests. */
async function enlargeResourceTimingBuffer(session: WorkerCdpSession): Promise<void> {
  await session.send('Runtime.evaluate', { expression: 'performance.setResourceTimingBufferSize(100000)' });
}

interface FetchTiming {
  n: number;
  p50Ms: number;
  p95Ms: number;
  sumMs: number;
  /** Share of the time from the first request to the last response with at least one request in flight. */
  inFlightShare: number;
}

/** The worker's own resource timing of the sync requests (cross-origin without Timing-Allow-Origin: start, duration). */
async function workerFetchTiming(session: WorkerCdpSession): Promise<FetchTiming> {
  const expression = `JSON.stringify(performance.getEntriesByType('resource')
    .filter((entry) => entry.name.includes(${JSON.stringify(SYNC_PATH)}))
    .map((entry) => [entry.startTime, entry.duration]))`;
  const { result } = await session.send<{ result: { value: string } }>('Runtime.evaluate', { expression, returnByValue: true });
  const entries = (JSON.parse(result.value) as [number, number][]).sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [start, duration] of entries) {
    const end = start + duration;
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  const span = entries.length === 0 ? 0 : reach - entries[0]![0];
  const durations = summarize(entries.map(([, duration]) => duration));
  return {
    n: entries.length,
    p50Ms: durations.p50,
    p95Ms: durations.p95,
    sumMs: entries.reduce((sum, [, duration]) => sum + duration, 0),
    inFlightShare: span > 0 ? covered / span : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Replay: the same records served from memory with the API's paging (no database), to see the worker on its own

/**
 * Answers POST /enforcement/transactions as the reference API does (records with updated_at ≥ floor(updated_at/1000),
 * ordered by (updated_at, key), after `offset`, at most `limit`, in the success envelope) from the records computed
 * here, without authentication. CORS as the API's: the bench page's origin, credentials, preflight.
 */
async function startReplayServer(records: Record<SyncType, ReplayRecord[]>, origin: string) {
  const server = createServer((request, response) => {
    const cors = {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: SyncType; limit: number; updated_at?: number; offset?: number };
      const list = records[body.type];
      const from = Math.floor((body.updated_at ?? 0) / 1000);
      let low = 0;
      let high = list.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (list[middle]!.updatedAt < from) low = middle + 1;
        else high = middle;
      }
      const start = low + (body.offset ?? 0);
      const page = list.slice(start, start + body.limit);
      const text = `{"success":true,"data":[${page.map((record) => record.json).join(',')}]}`;
      response.writeHead(200, { ...cors, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The replay must answer as the API does: the first page of each type, compared record by record. */
async function replayMatchesApi(apiUrl: string, replayUrl: string, headers: Record<string, string>): Promise<boolean> {
  for (const type of SYNC_TYPES) {
    const body = JSON.stringify({ type, locationId: LOCATION_IDS, limit: SYNC_PAGE_SIZE, offset: 0 });
    const [fromApi, fromReplay] = await Promise.all(
      [apiUrl, replayUrl].map(async (base) => {
        const response = await fetch(`${base}/enforcement/transactions?type=${type}`, { method: 'POST', headers, body });
        return JSON.stringify(((await response.json()) as { data: unknown }).data);
      }),
    );
    if (fromApi !== fromReplay) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// The API alone: paging it from Node as the worker does, without parsing (what the sync cannot beat)

async function serverFloor(api: BenchmarkApi, headers: Record<string, string>): Promise<{ ms: number; requests: number; records: number; perType: Record<string, number> }> {
  let requests = 0;
  let records = 0;
  const perType: Record<string, number> = {};
  const begun = performance.now();
  for (const type of SYNC_TYPES) {
    const typeStarted = performance.now();
    let updatedAt: number | undefined;
    let offset = 0;
    for (;;) {
      const response = await fetch(`${api.url}/enforcement/transactions?type=${type}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type, locationId: LOCATION_IDS, limit: SYNC_PAGE_SIZE, updated_at: updatedAt, offset }),
      });
      const text = await response.text();
      requests++;
      // Only the cursor fields are needed: the last record's updated_at and how many records share it.
      const stamps = [...text.matchAll(/"updated_at":(\d+)/g)].map((match) => Number(match[1]));
      records += stamps.length;
      if (stamps.length < SYNC_PAGE_SIZE) break;
      const last = stamps[stamps.length - 1]!;
      let same = 0;
      for (let i = stamps.length - 1; i >= 0 && stamps[i] === last; i--) same++;
      offset = updatedAt === last * 1000 ? offset + same : same;
      updatedAt = last * 1000;
    }
    perType[type] = performance.now() - typeStarted;
  }
  return { ms: performance.now() - begun, requests, records, perType };
}

// ---------------------------------------------------------------------------------------------------------------

function roundSummary(result: RoundResult) {
  return result.types.map((type) => ({
    type: type.type,
    calls: type.calls,
    pages: type.pages,
    records: type.records,
    ms: round(type.ms),
    outcomes: type.outcomes,
    failure: type.failure,
  }));
}

async function main(): Promise<void> {
  const loadAtStart = machineInfo().loadAverage;
  const target = splitRecords(RECORDS);
  step(`building bench/pages/sync.html into ${path.relative(process.cwd(), DIST)}; finding record counts that serve ${RECORDS} records`);
  // Profiled: not minified, so the profile names the functions (minified, they read `y`, `pi`, …).
  const buildMs = await buildBenchPagesInto(['sync'], DIST, [], { minify: !PROFILE });
  const server = await serveStatic(DIST);
  const calibrateStarted = performance.now();
  const { counts } = calibrateServedCounts(target, { locations: LOCATION_IDS, seed: SEED, nowMs: NOW_MS });
  const calibrateMs = performance.now() - calibrateStarted;
  const generated = SYNC_TYPES.reduce((sum, type) => sum + counts[type], 0);

  const cluster = POSTGRES ? await startThrowawayPostgres('lpa_sync') : null;
  const engine = cluster ? 'PostgreSQL' : 'PGlite';
  step(`reference API: generating ${generated} records (served to the officer: ${RECORDS}) into ${engine}`);
  const apiStarted = performance.now();
  const api = await startApiForBenchmark({
    ...(cluster ? { databaseUrl: cluster.url } : {}),
    counts,
    seed: SEED,
    now: new Date(NOW_MS),
    locationIds: LOCATION_IDS,
    corsOrigins: [server.origin],
  });
  const apiStartMs = performance.now() - apiStarted;
  const expected = expectedFor(counts, api.seeded.firstIds);
  const databaseTimer = timeDatabase(api.db);
  const headers = await api.headersFor(OFFICER.email);
  const idToken = headers.Authorization!.replace(/^Bearer /, '');
  const sessionToken = headers[SESSION_HEADER]!;
  for (const type of SYNC_TYPES) {
    if (expected.servedByType[type] !== target[type]) console.error(`note: ${type} serves ${expected.servedByType[type]}, not ${target[type]}`);
  }

  // Storage on disk, as on an officer's phone: Chromium 150's off-the-record IndexedDB slows down as it grows.
  let chromium = await launchChromiumOnDisk();
  const chromiumVersion = chromium.version;
  let workerSession: WorkerCdpSession | null = null;
  try {
    const page = await chromium.context.newPage();
    echoPageConsole(page, '[page]');
    await page.goto(`${server.origin}/sync.html`);
    const isolated = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.crossOriginIsolated());
    const longTaskSupported = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.longTaskSupported());
    const selfTest = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.longTaskSelfTest(80));

    await page.evaluate(() => (window as unknown as BenchWindow).syncBench.startWorker());
    const opened = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.open());
    if (!opened.status.available || !opened.status.empty) throw new Error(`the store is not fresh: ${JSON.stringify(opened.status)}`);
    workerSession = await attachToWorker(chromium.browser, 'enforcement.worker');
    const heapAtOpenMB = await heapUsedMB(workerSession);
    await enlargeResourceTimingBuffer(workerSession);

    const roundOptions: RoundOptions = {
      apiBase: api.url,
      locationIds: LOCATION_IDS,
      now: NOW_MS,
      idToken,
      sessionToken,
      probe: SEARCH_PROBE ? { text: expected.probeText, intervalMs: PROBE_INTERVAL_MS } : null,
      maxCallsPerType: Math.ceil(RECORDS / SYNC_PAGE_SIZE) + 10,
    };

    // ---- fresh sync ----
    step(`fresh sync: ${RECORDS} records, five types in spec order, as ${OFFICER.email} (locations ${LOCATION_IDS.join(', ')})`);
    databaseTimer.take();
    const heapSampler = sampleHeap(workerSession);
    // Searched while expansion runs: the known plates (the first one times "searchable"), and one single character
    // (up to 50 rows to fetch: the worst case). The complete check, all 36 characters, follows flush().
    const duringTexts = expected.texts.slice(0, expected.knownPlates + 1);
    if (PROFILE) {
      await workerSession.send('Profiler.enable');
      await workerSession.send('Profiler.setSamplingInterval', { interval: 200 });
      await workerSession.send('Profiler.start');
    }
    const fresh = await page.evaluate(
      ([options, texts, name]) => (window as unknown as BenchWindow).syncBench.freshSync(options, texts, name),
      [roundOptions, duringTexts, STORE_NAME] as const,
    );
    const heapSamples = await heapSampler.stop();
    if (PROFILE) await writeWorkerProfile(workerSession);
    // After the fresh sync: as found (garbage included, depends on when V8 last collected), then after a full GC
    // (what the worker retains; the goal is judged on this). Expansion is running meanwhile.
    const workerHeapAsFoundMB = await heapUsedMB(workerSession);
    const workerHeapMB = await heapUsedMB(workerSession, true);
    // searchDuringSyncP95Ms goes on over the expansion (issue 15: "during the fresh sync and its expansion").
    if (SEARCH_PROBE) {
      await page.evaluate(
        ([text, intervalMs, now]) => (window as unknown as BenchWindow).syncBench.startExpansionSearches(text, intervalMs, now),
        [expected.probeText, PROBE_INTERVAL_MS, NOW_MS] as const,
      );
    }
    const freshPageQueries = summarize(databaseTimer.take());
    const freshPageQueriesSumMs = freshPageQueries.mean * freshPageQueries.n;
    const fetchTiming = await workerFetchTiming(workerSession);
    const { round: freshRound, verification, committed } = fresh;
    const statusAfterSync = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.status());
    const syncedRecords = freshRound.types.reduce((sum, type) => sum + type.records, 0);
    step(
      `fresh sync returned after ${round((freshRound.returnedAt - freshRound.startedAt) / 1000)} s (${syncedRecords} records), ` +
        `${duringTexts.length} searches in ${round(verification.ms)} ms; waiting for flush()`,
    );

    const flushedAt = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.flushed());
    const expansionProbeMs = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.expansionSearches());
    const flushLongTasks = await page.evaluate(
      ([from, to]) => (window as unknown as BenchWindow).syncBench.longTasksBetween(from, to),
      [freshRound.returnedAt, flushedAt] as const,
    );
    const statusAfterFlush = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.status());
    const committedAfterFlush = await page.evaluate((name) => (window as unknown as BenchWindow).syncBench.committedRecords(name), STORE_NAME);
    const workerHeapAfterFlushGcMB = await heapUsedMB(workerSession, true);
    // The complete check: the index has not changed since the sync returned (expansion moves rows, not index
    // entries; nothing else ran), and totals come from the index alone.
    const fullCheck = await page.evaluate(
      ([texts, now]) => (window as unknown as BenchWindow).syncBench.verify(texts, now),
      [expected.texts, NOW_MS] as const,
    );
    step(`flush() resolved ${round((flushedAt - freshRound.startedAt) / 1000)} s after sync start`);

    // ---- stale sync ----
    step('stale sync: all five types again, nothing new on the server');
    const stale = await page.evaluate(
      (options) => (window as unknown as BenchWindow).syncBench.syncRound(options),
      { ...roundOptions, probe: null },
    );
    const staleSyncMs = stale.returnedAt - stale.startedAt;

    // ---- purge ----
    step(`purge with now + ${PURGE_ADVANCE_MS / DAY_MS} days (cutoff ${new Date(expected.purgeCutoffSeconds * 1000).toISOString()})`);
    const purge = await page.evaluate(
      ([now, text]) => (window as unknown as BenchWindow).syncBench.purge(now, text),
      [NOW_MS + PURGE_ADVANCE_MS, expected.probeText] as const,
    );
    const purgeSearches = summarize(purge.searchMs);
    const statusAfterPurge = await page.evaluate(() => (window as unknown as BenchWindow).syncBench.status());

    // ---- per-row ceiling ----
    // After the stale sync and the purge: writing and deleting its scratch database of up to 500,000 rows keeps the
    // browser's IndexedDB backend busy for a while after, which no phone has before a sync or a purge.
    step(`per-row ceiling: raw IDBObjectStore.put of the stored rows, ${CEILING_BATCH} per transaction (probe worker)`);
    const ceiling = await page.evaluate(
      (options) => (window as unknown as BenchWindow).syncBench.ceiling(options),
      {
        sourceDb: STORE_NAME,
        scratchDb: SCRATCH_DB,
        batch: CEILING_BATCH,
        withIndexes: false,
        perTableLimit: CEILING_RECORDS > 0 ? Math.ceil(CEILING_RECORDS / 4) : Number.MAX_SAFE_INTEGER,
      },
    );
    const indexedCeiling =
      INDEXED_SAMPLE > 0
        ? await page.evaluate((options) => (window as unknown as BenchWindow).syncBench.ceiling(options), {
            sourceDb: STORE_NAME,
            scratchDb: SCRATCH_DB,
            batch: CEILING_BATCH,
            withIndexes: true,
            perTableLimit: Math.ceil(INDEXED_SAMPLE / 4),
          })
        : null;

    // ---- reload, cold start ----
    step('reload; new worker, open() from the index snapshot, first search');
    await workerSession.detach();
    workerSession = null;
    await page.reload();
    const cold = await page.evaluate(
      ([text, now]) => (window as unknown as BenchWindow).syncBench.coldStart(text, now),
      [expected.probeText, NOW_MS] as const,
    );
    const afterReload = await page.evaluate(
      ([texts, now]) => (window as unknown as BenchWindow).syncBench.verify(texts, now),
      [expected.texts, NOW_MS] as const,
    );
    await chromium.close();

    // ---- replay: the worker without the reference API's database ----
    let replay: {
      matchesApi: boolean;
      records: number;
      committed: number;
      timeToSyncReturnedMs: number;
      timeToSearchableMs: number;
      firstSearchCorrect: boolean;
      timeToDurableMs: number;
      durableRecordsPerSec: number;
      mainThreadLongTasks: number;
      types: ReturnType<typeof roundSummary>;
      fetch: FetchTiming;
    } | null = null;
    if (REPLAY) {
      step('replay: a second fresh sync (new browser and profile, empty store) of the same records served from memory');
      const replayServer = await startReplayServer(expected.replay, server.origin);
      chromium = await launchChromiumOnDisk();
      try {
        const matchesApi = await replayMatchesApi(api.url, replayServer.url, headers);
        const replayPage = await chromium.context.newPage();
        echoPageConsole(replayPage, '[replay page]');
        await replayPage.goto(`${server.origin}/sync.html`);
        await replayPage.evaluate(() => (window as unknown as BenchWindow).syncBench.startWorker());
        await replayPage.evaluate(() => (window as unknown as BenchWindow).syncBench.open());
        const replaySession = await attachToWorker(chromium.browser, 'enforcement.worker');
        await enlargeResourceTimingBuffer(replaySession);
        const result = await replayPage.evaluate(
          ([options, texts, name]) => (window as unknown as BenchWindow).syncBench.freshSync(options, texts, name),
          [{ ...roundOptions, apiBase: replayServer.url, probe: null }, expected.texts.slice(0, 1), STORE_NAME] as const,
        );
        const replayFetch = await workerFetchTiming(replaySession);
        await replaySession.detach();
        await replayPage.close();
        const replayRecords = result.round.types.reduce((sum, type) => sum + type.records, 0);
        const replayDurableMs = (result.round.lastProgressAt ?? result.round.returnedAt) - result.round.startedAt;
        replay = {
          matchesApi,
          records: replayRecords,
          committed: result.committed.total,
          timeToSyncReturnedMs: result.round.returnedAt - result.round.startedAt,
          timeToSearchableMs: result.verification.answeredAt[0]! - result.round.startedAt,
          firstSearchCorrect: totalsMismatches(result.verification.totals, expected.totals.slice(0, 1), expected.texts.slice(0, 1)).length === 0,
          timeToDurableMs: replayDurableMs,
          durableRecordsPerSec: replayRecords / (replayDurableMs / 1000),
          mainThreadLongTasks: result.round.longTasks.length,
          types: roundSummary(result.round),
          fetch: replayFetch,
        };
      } finally {
        await replayServer.close();
      }
    }
    await chromium.close();

    let floor: Awaited<ReturnType<typeof serverFloor>> | null = null;
    let floorPageQueries: ReturnType<typeof summarize> | null = null;
    if (SERVER_FLOOR) {
      step('the reference API alone: paging every type from Node as the worker does (no parsing)');
      databaseTimer.take();
      floor = await serverFloor(api, headers);
      floorPageQueries = summarize(databaseTimer.take());
    }

    // ---- figures ----
    const timeToReturnedMs = freshRound.returnedAt - freshRound.startedAt;
    // Searchable: every syncType call returned and the first search (a known plate) answered with the expected
    // totals. Nothing changes the index after the calls return (expansion moves rows, not index entries), so the
    // complete check after flush() (36 one-character searches, totals from the index) proves every record was
    // findable at that moment.
    const firstSearchCorrect = totalsMismatches(verification.totals.slice(0, 1), expected.totals.slice(0, 1), expected.texts.slice(0, 1)).length === 0;
    const timeToSearchableMs = verification.answeredAt[0]! - freshRound.startedAt;
    const plateSearchesDuring = summarize(verification.queryMs.slice(0, expected.knownPlates));
    const characterSearchDuringMs = verification.queryMs[expected.knownPlates]!;
    const fullCheckQueries = summarize(fullCheck.queryMs);
    const timeToDurableMs = (freshRound.lastProgressAt ?? freshRound.returnedAt) - freshRound.startedAt;
    const timeToSpecTablesMs = flushedAt - freshRound.startedAt;
    const durableRecordsPerSec = syncedRecords / (timeToDurableMs / 1000);
    const specTableRecordsPerSec = syncedRecords / (timeToSpecTablesMs / 1000);
    const expansionMs = flushedAt - freshRound.returnedAt;
    // Rows still staged (not in their tables) just after the sync returned, over the time flush() took from there.
    const expansionRecordsPerSec = committed.stagedBeyondWatermark / (expansionMs / 1000);
    const perRowCeilingRecordsPerSec = ceiling.recordsPerSec;
    const mainThreadLongTasks = freshRound.longTasks.length;
    const heapPeakMB = Math.max(workerHeapAsFoundMB, ...heapSamples);
    // searchDuringSyncP95Ms covers the fresh sync and its expansion (issue 15): the searches of both phases together.
    const probeSyncPhase = summarize(freshRound.probeMs);
    const probeExpansionPhase = summarize(expansionProbeMs);
    const probe = summarize([...freshRound.probeMs, ...expansionProbeMs]);

    const searchProblems = [
      ...totalsMismatches(verification.totals, expected.totals.slice(0, duringTexts.length), duringTexts),
      ...totalsMismatches(fullCheck.totals, expected.totals, expected.texts),
    ];
    const coldProblems = totalsMismatches(afterReload.totals, expected.totalsAfterPurge, expected.texts);
    const statusTotals = (status: typeof statusAfterFlush) => Object.fromEntries(status.types.map((t) => [t.type, t.totalRecords])) as TypeCounts;
    const heldMatches = (status: typeof statusAfterFlush) => SYNC_TYPES.every((type) => statusTotals(status)[type] === expected.heldByType[type]);
    const checks = {
      syncedEqualsServed: syncedRecords === expected.served,
      noSyncFailures: freshRound.types.every((type) => type.failure === null) && stale.types.every((type) => type.failure === null),
      everyRecordFoundBySearch: searchProblems.length === 0,
      firstSearchCorrect,
      committedAfterSync: committed.total === expected.served,
      inSpecTablesAfterFlush: committedAfterFlush.stagedBeyondWatermark === 0 && committedAfterFlush.total === expected.served,
      statusTotalsAfterSync: heldMatches(statusAfterSync),
      statusTotalsAfterFlush: heldMatches(statusAfterFlush),
      purgedAsExpected: purge.purged === expected.purged,
      coldStartFindsWhatRemains: coldProblems.length === 0,
      staleSyncStoredNothing: stale.types.every((type) => type.records === 0),
      longTaskObserverWorks: longTaskSupported && selfTest.length > 0,
      crossOriginIsolated: isolated,
      ...(replay === null
        ? {}
        : {
            replayAnswersAsTheApi: replay.matchesApi,
            replaySyncedAndCommittedAll: replay.records === expected.served && replay.committed === expected.served && replay.firstSearchCorrect,
          }),
    };

    const goals: Goal[] = [
      goalAtMost(
        `time to searchable (sync start → every record found), API on ${engine}`,
        cluster ? 'timeToSearchableMsPostgres' : 'timeToSearchableMs',
        round(timeToSearchableMs),
        GOALS.timeToSearchableMs,
        'ms',
      ),
      goalAtLeast(
        `durable records/s vs per-row ceiling (${round(perRowCeilingRecordsPerSec)}/s)`,
        'durableVsCeiling',
        round(durableRecordsPerSec / perRowCeilingRecordsPerSec),
        GOALS.durableVsCeiling,
        '×',
      ),
      goalAtMost('main-thread long tasks during the fresh sync', 'mainThreadLongTasks', mainThreadLongTasks, GOALS.mainThreadLongTasks, ''),
      goalAtMost('stale sync (five types, nothing new)', 'staleSyncMs', round(staleSyncMs), GOALS.staleSyncMs, 'ms'),
      goalAtMost('cold start after reload until a search answers', 'coldStartIndexMs', round(cold.totalMs), GOALS.coldStartIndexMs, 'ms'),
      goalAtMost('worker JS heap after the fresh sync (after GC)', 'workerHeapMB', round(workerHeapMB), GOALS.workerHeapMB, 'MB'),
      ...(SEARCH_PROBE
        ? [goalAtMost('search during the fresh sync and its expansion, p95 (page → answer)', 'searchDuringSyncP95Ms', round(probe.p95), GOALS.searchDuringSyncP95Ms, 'ms')]
        : []),
      goalAtMost('search during the purge, p95 (page → answer)', 'searchDuringPurgeP95Ms', round(purgeSearches.p95), GOALS.searchDuringPurgeP95Ms, 'ms'),
      goalAtMost('longest read-write transaction of the purge', 'purgeLongestTransactionMs', round(purge.longestTransactionMs), GOALS.purgeLongestTransactionMs, 'ms'),
    ];

    const load = machineInfo();
    console.log('');
    console.log(
      formatTable(
        ['figure', 'value', 'note'],
        [
          ['records synced', syncedRecords, `${SYNC_TYPES.map((type) => expected.servedByType[type]).join(' / ')} (${SYNC_TYPES.join(' / ')})`],
          ['time to searchable (ms)', round(timeToSearchableMs), `syncType calls returned ${round(timeToReturnedMs)} + first search (known plate) ${round(verification.queryMs[0]!)}`],
          [
            'search while expansion runs (ms)',
            `${round(plateSearchesDuring.p50)} / ${round(characterSearchDuringMs)}`,
            `whole plate p50 (${plateSearchesDuring.n}) / one character "${expected.texts[expected.knownPlates]}" (50 rows from staged pages)`,
          ],
          [
            'search after flush(), p50 / max (ms)',
            `${round(fullCheckQueries.p50)} / ${round(fullCheckQueries.max)}`,
            `the complete check: ${expected.texts.length} searches, every record found`,
          ],
          [
            'API database time during the fresh sync (ms)',
            round(freshPageQueriesSumMs),
            `${freshPageQueries.n} page queries, p50 ${round(freshPageQueries.p50)} ms (${engine}, ${cluster ? 'its own processes' : 'in this process'})`,
          ],
          [
            'worker: sync requests in flight (share of time)',
            `${Math.round(fetchTiming.inFlightShare * 100)} %`,
            `${fetchTiming.n} requests, p50 ${round(fetchTiming.p50Ms)} ms, p95 ${round(fetchTiming.p95Ms)}, sum ${round(fetchTiming.sumMs)} ms (resource timing)`,
          ],
          ['time to durable (ms)', round(timeToDurableMs), 'last page committed (its progress event on the page)'],
          [
            'replay from memory: searchable / durable (ms)',
            replay === null ? '—' : `${round(replay.timeToSearchableMs)} / ${round(replay.timeToDurableMs)}`,
            replay === null
              ? 'skipped'
              : `same records without the database: ${Math.round(replay.durableRecordsPerSec)} records/s durable, ` +
                `requests in flight ${Math.round(replay.fetch.inFlightShare * 100)} %, p50 ${round(replay.fetch.p50Ms)} ms`,
          ],
          ['time to spec tables (ms)', round(timeToSpecTablesMs), `flush() resolved; expansion after the sync ${round(expansionMs)} ms`],
          ['durable records/s', Math.round(durableRecordsPerSec), `${round(durableRecordsPerSec / perRowCeilingRecordsPerSec)}× ceiling`],
          ['spec-table records/s (end to end)', Math.round(specTableRecordsPerSec), `${round(specTableRecordsPerSec / perRowCeilingRecordsPerSec)}× ceiling`],
          ['expansion after the sync (records/s)', Math.round(expansionRecordsPerSec), `${committed.stagedBeyondWatermark} rows staged when the sync returned, expanded in ${round(expansionMs)} ms`],
          ['per-row ceiling, primary key only (records/s)', Math.round(perRowCeilingRecordsPerSec), `${ceiling.records} rows, ${ceiling.transactions} transactions, put ${round(ceiling.putMs)} ms`],
          [
            'per-row ceiling with the tables\' indexes (records/s)',
            indexedCeiling === null ? '—' : Math.round(indexedCeiling.recordsPerSec),
            indexedCeiling === null ? 'skipped' : `sample of ${indexedCeiling.records} rows`,
          ],
          ['main-thread long tasks (fresh sync)', mainThreadLongTasks, `during flush: ${flushLongTasks.length}; observer self-test saw ${selfTest.length}`],
          [
            'search during the sync and expansion, p50 / p95 / max (ms)',
            SEARCH_PROBE ? `${round(probe.p50)} / ${round(probe.p95)} / ${round(probe.max)}` : '—',
            SEARCH_PROBE ? `${probe.n} searches, one per ${PROBE_INTERVAL_MS} ms` : 'off (--no-probe)',
          ],
          [
            '  of which during the sync, p50 / p95 / max (ms)',
            SEARCH_PROBE ? `${round(probeSyncPhase.p50)} / ${round(probeSyncPhase.p95)} / ${round(probeSyncPhase.max)}` : '—',
            SEARCH_PROBE ? `${probeSyncPhase.n} searches` : '',
          ],
          [
            '  of which during the expansion, p50 / p95 / max (ms)',
            SEARCH_PROBE ? `${round(probeExpansionPhase.p50)} / ${round(probeExpansionPhase.p95)} / ${round(probeExpansionPhase.max)}` : '—',
            SEARCH_PROBE ? `${probeExpansionPhase.n} searches, after the sync returned until flush() resolved` : '',
          ],
          ['stale sync (ms)', round(staleSyncMs), stale.types.map((t) => `${t.type} ${round(t.ms)} ${t.outcomes.join(',')}`).join('; ')],
          ['purge (ms)', round(purge.ms), `${purge.purged} purged (expected ${expected.purged}); ${purge.transactions} transactions (${purge.slowTransactions} of ${SLOW_PURGE_TRANSACTION_MS} ms or more), longest ${round(purge.longestTransactionMs)} ms (number ${purge.longestTransactionNumber}, ${purge.longestTransactionRows} rows asked; its first read answered after ${round(purge.longestTransactionFirstReadMs)} ms)`],
          [
            'search during the purge, p50 / p95 / max (ms)',
            purgeSearches.n > 0 ? `${round(purgeSearches.p50)} / ${round(purgeSearches.p95)} / ${round(purgeSearches.max)}` : '—',
            `${purgeSearches.n} searches "${expected.probeText}", back to back`,
          ],
          ['cold start (ms)', round(cold.totalMs), `open ${round(cold.openMs)} + first search ${round(cold.firstSearchMs)}`],
          [
            'worker heap after the fresh sync, after GC (MB)',
            round(workerHeapMB),
            `as found ${round(workerHeapAsFoundMB)}; peak sampled during sync (no GC) ${round(heapPeakMB)}; ` +
              `after flush + GC ${round(workerHeapAfterFlushGcMB)}; at open ${round(heapAtOpenMB)}`,
          ],
          [
            'reference API alone, paged from Node (ms)',
            floor === null ? '—' : round(floor.ms),
            floor === null || floorPageQueries === null
              ? 'skipped'
              : `${floor.requests} requests, ${floor.records} records, no parsing; database ${round(floorPageQueries.mean * floorPageQueries.n)} ms`,
          ],
          ['machine load average (1/5/15 min)', load.loadAverage.join(' / '), `at start ${loadAtStart.join(' / ')}; ${load.cpus} CPUs, shared`],
        ],
      ),
    );
    console.log('');
    console.log(formatTable(['type', 'calls', 'pages', 'records', 'ms', 'outcomes'], freshRound.types.map((t) => [t.type, t.calls, t.pages, t.records, round(t.ms), t.outcomes.join(',')])));
    console.log('');
    console.log(formatTable(['check', 'result'], Object.entries(checks).map(([name, ok]) => [name, ok ? 'ok' : 'FAILED'])));
    for (const problem of [...searchProblems, ...coldProblems].slice(0, 10)) console.error(`  ${problem}`);
    console.log('');
    console.log(formatGoals(goals));

    const results = {
      name: 'sync',
      date: new Date().toISOString(),
      machine: { ...load, loadAverageAtStart: loadAtStart, chromium: chromiumVersion },
      crossOriginIsolated: isolated,
      options: {
        records: RECORDS,
        seed: SEED,
        searchProbe: SEARCH_PROBE,
        ceilingRecords: CEILING_RECORDS || 'all',
        indexedSample: INDEXED_SAMPLE,
        serverFloor: SERVER_FLOOR,
        replay: REPLAY,
      },
      setup: {
        account: OFFICER.email,
        locationIds: LOCATION_IDS,
        now: new Date(NOW_MS).toISOString(),
        generatedByType: counts,
        generated,
        servedByType: expected.servedByType,
        apiStartMs: round(apiStartMs),
        calibrateMs: round(calibrateMs),
        buildMs: round(buildMs),
        openMs: round(opened.ms),
      },
      records: syncedRecords,
      timeToSearchableMs: round(timeToSearchableMs),
      ...(cluster ? { timeToSearchableMsPostgres: round(timeToSearchableMs), apiDatabase: cluster.version } : { apiDatabase: 'PGlite (in process)' }),
      timeToSearchableDefinition:
        'sync start → all syncType calls returned and the first verification search (a known plate) answered correctly; ' +
        'the 36 one-character searches after flush() (index unchanged since) find every record (totals per category equal the served records)',
      timeToSyncReturnedMs: round(timeToReturnedMs),
      searchWhileExpanding: {
        texts: duringTexts,
        ms: verification.queryMs.map(round),
        wholePlateP50Ms: round(plateSearchesDuring.p50),
        oneCharacterMs: round(characterSearchDuringMs),
      },
      completeCheckAfterFlush: {
        searches: expected.texts.length,
        ms: round(fullCheck.ms),
        queryP50Ms: round(fullCheckQueries.p50),
        queryMaxMs: round(fullCheckQueries.max),
        texts: expected.texts,
      },
      whereTheTimeGoes: {
        apiDatabaseDuringFreshSync: { pageQueries: freshPageQueries.n, sumMs: round(freshPageQueriesSumMs), p50Ms: round(freshPageQueries.p50), p95Ms: round(freshPageQueries.p95) },
        workerSyncRequests: {
          n: fetchTiming.n,
          p50Ms: round(fetchTiming.p50Ms),
          p95Ms: round(fetchTiming.p95Ms),
          sumMs: round(fetchTiming.sumMs),
          inFlightShare: round(fetchTiming.inFlightShare),
        },
      },
      timeToDurableMs: round(timeToDurableMs),
      timeToSpecTablesMs: round(timeToSpecTablesMs),
      expansionAfterSyncMs: round(expansionMs),
      expansionRecordsPerSec: Math.round(expansionRecordsPerSec),
      perRowCeilingRecordsPerSec: Math.round(perRowCeilingRecordsPerSec),
      perRowCeiling: {
        records: ceiling.records,
        sample: ceiling.records === syncedRecords ? 'all records' : `${ceiling.records} of ${syncedRecords}`,
        transactions: ceiling.transactions,
        putMs: round(ceiling.putMs),
        readMs: round(ceiling.readMs),
        durability: 'relaxed',
        indexes: 'primary key only',
        perTable: Object.fromEntries(Object.entries(ceiling.perTable).map(([name, t]) => [name, { records: t.records, recordsPerSec: Math.round(t.recordsPerSec) }])),
        rowBytesApprox: Math.round(ceiling.bytesApprox),
      },
      perRowCeilingWithIndexes:
        indexedCeiling === null
          ? null
          : {
              records: indexedCeiling.records,
              recordsPerSec: Math.round(indexedCeiling.recordsPerSec),
              putMs: round(indexedCeiling.putMs),
              perTable: Object.fromEntries(Object.entries(indexedCeiling.perTable).map(([name, t]) => [name, { records: t.records, recordsPerSec: Math.round(t.recordsPerSec) }])),
            },
      durableRecordsPerSec: Math.round(durableRecordsPerSec),
      durableVsCeiling: round(durableRecordsPerSec / perRowCeilingRecordsPerSec),
      specTableRecordsPerSec: Math.round(specTableRecordsPerSec),
      specTableVsCeiling: round(specTableRecordsPerSec / perRowCeilingRecordsPerSec),
      mainThreadLongTasks,
      mainThreadLongTaskDetail: freshRound.longTasks.map((task) => ({ startMs: round(task.startTime - freshRound.startedAt), durationMs: round(task.duration) })),
      mainThreadLongTasksDuringFlush: flushLongTasks.length,
      longTaskObserver: { supported: longTaskSupported, selfTestDetected: selfTest.map((task) => round(task.duration)) },
      searchDuringSync: SEARCH_PROBE
        ? {
            text: expected.probeText,
            intervalMs: PROBE_INTERVAL_MS,
            n: probe.n,
            p50Ms: round(probe.p50),
            p95Ms: round(probe.p95),
            maxMs: round(probe.max),
            syncPhase: { n: probeSyncPhase.n, p50Ms: round(probeSyncPhase.p50), p95Ms: round(probeSyncPhase.p95), maxMs: round(probeSyncPhase.max), samplesMs: freshRound.probeMs.map(round) },
            expansionPhase: { n: probeExpansionPhase.n, p50Ms: round(probeExpansionPhase.p50), p95Ms: round(probeExpansionPhase.p95), maxMs: round(probeExpansionPhase.max), samplesMs: expansionProbeMs.map(round) },
          }
        : null,
      searchDuringSyncP95Ms: SEARCH_PROBE ? round(probe.p95) : null,
      searchDuringPurgeP95Ms: round(purgeSearches.p95),
      purgeLongestTransactionMs: round(purge.longestTransactionMs),
      freshSync: {
        types: roundSummary(freshRound),
        progressEvents: freshRound.progressEvents,
        committedAfterSync: committed,
        committedAfterFlush,
        statusTotalsAfterSync: statusTotals(statusAfterSync),
        statusTotalsAfterFlush: statusTotals(statusAfterFlush),
        expectedStatusTotals: expected.heldByType,
      },
      staleSyncMs: round(staleSyncMs),
      staleSync: { types: roundSummary(stale) },
      purgeMs: round(purge.ms),
      purgedRecords: purge.purged,
      purge: {
        now: new Date(NOW_MS + PURGE_ADVANCE_MS).toISOString(),
        cutoff: new Date(expected.purgeCutoffSeconds * 1000).toISOString(),
        expected: expected.purged,
        expectedByType: expected.purgedByType,
        statusTotalsAfter: statusTotals(statusAfterPurge),
        transactions: purge.transactions,
        slowTransactions: purge.slowTransactions,
        slowTransactionMs: SLOW_PURGE_TRANSACTION_MS,
        longestTransactionMs: round(purge.longestTransactionMs),
        longestTransactionFirstReadMs: round(purge.longestTransactionFirstReadMs),
        longestTransactionRows: purge.longestTransactionRows,
        longestTransactionNumber: purge.longestTransactionNumber,
        searchesDuring: { n: purgeSearches.n, p50Ms: round(purgeSearches.p50), p95Ms: round(purgeSearches.p95), maxMs: round(purgeSearches.max) },
      },
      coldStartIndexMs: round(cold.totalMs),
      coldStart: { openMs: round(cold.openMs), firstSearchMs: round(cold.firstSearchMs) },
      workerHeapMB: round(workerHeapMB),
      workerHeap: {
        measure: 'Runtime.getHeapUsage usedSize + backingStorageSize on the worker target (CDP), 10^6 bytes',
        afterFreshSyncAfterGcMB: round(workerHeapMB),
        afterFreshSyncAsFoundMB: round(workerHeapAsFoundMB),
        peakSampledDuringSyncMB: round(heapPeakMB),
        samples: heapSamples.length,
        afterFlushAfterGcMB: round(workerHeapAfterFlushGcMB),
        atOpenMB: round(heapAtOpenMB),
      },
      referenceApiAlone:
        floor === null
          ? null
          : {
              ms: round(floor.ms),
              requests: floor.requests,
              records: floor.records,
              perTypeMs: Object.fromEntries(Object.entries(floor.perType).map(([k, v]) => [k, round(v)])),
              databaseSumMs: floorPageQueries === null ? null : round(floorPageQueries.mean * floorPageQueries.n),
              databaseP50Ms: floorPageQueries === null ? null : round(floorPageQueries.p50),
            },
      replayFromMemory:
        replay === null
          ? null
          : {
              what: 'a second fresh sync in a new browser with an empty profile against the same records served from memory (API paging, no database, no auth)',
              records: replay.records,
              timeToSyncReturnedMs: round(replay.timeToSyncReturnedMs),
              timeToSearchableMs: round(replay.timeToSearchableMs),
              timeToDurableMs: round(replay.timeToDurableMs),
              durableRecordsPerSec: Math.round(replay.durableRecordsPerSec),
              durableVsCeiling: round(replay.durableRecordsPerSec / perRowCeilingRecordsPerSec),
              mainThreadLongTasks: replay.mainThreadLongTasks,
              workerSyncRequests: {
                n: replay.fetch.n,
                p50Ms: round(replay.fetch.p50Ms),
                p95Ms: round(replay.fetch.p95Ms),
                inFlightShare: round(replay.fetch.inFlightShare),
              },
              types: replay.types,
            },
      checks,
      checkProblems: [...searchProblems, ...coldProblems].slice(0, 50),
      runSeconds: round((performance.now() - started) / 1000),
      goals,
      allGoalsMet: goals.every((goal) => goal.pass),
    };
    const file = await writeResults(cluster ? 'sync-postgres' : 'sync', results);
    step(`wrote ${file}`);
  } finally {
    if (workerSession !== null) await workerSession.detach().catch(() => undefined);
    await chromium.close();
    await api.stop();
    cluster?.stop();
    await server.close();
  }
}

main().catch((error: unknown) => {
  // A benchmark reports; it does not fail a build.
  console.error('bench:sync did not complete:', error);
});
