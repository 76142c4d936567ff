/**
 * Plate search benchmark (`npm run bench:search`; docs/benchmarks.md), in headless Chromium with its profile on disk
 * (IndexedDB in files, as on a phone; an off-the-record profile keeps it in memory). Every speed figure is a ratio
 * against the plainest way of doing the same work, measured beside it in alternating pairs:
 *   1. worker search p95 (PlateIndex.match + reading the page's rows from IndexedDB, timed in the worker) over the
 *      query mix ÷ the p50 of the plain scan of the same plates (bench/pages/plain-scan.ts: `includes` on every plate,
 *      matches sorted) plus the same row reads, in the same worker, over the same mix; exact, and similar characters on;
 *   2. the same on the page's main thread at 6× CPU (CDP throttling does not reach workers): index p95 ÷ plain scan
 *      p50, both throttled alike (no row reads: the page has no store);
 *   3. cold start (fresh worker → store opened, snapshot read, index rebuilt, first answer) ÷ a fresh worker's plain
 *      `get` of one value the size of the snapshot.
 * The plain scan must give the index's totals and page keys for every query of the mix (a check: goals are judged
 * only when every check passes). Writes bench/results/<latest|smoke|custom>/search.json.
 *
 *   npm run bench:search                       # 500,000 records, 5 pairs per figure
 *   npm run bench:search -- --smoke            # 10,000 records, 2 pairs, a quarter of the mix (CI)
 *   options: --records N, --pairs K
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { DEMO_LOCATION_IDS } from '../server/db/seed/demo-locations';
import { absolute, smoke, startBenchRun } from './lib/bench-run';
import { cpuThrottle, echoPageConsole, launchChromiumOnDisk, type OnDiskChromium } from './lib/chromium';
import { option } from './lib/cli';
import { alternate, median, ratioFigure, type Pair } from './lib/method';
import { RESULTS_DIR } from './lib/report';
import type { Check } from './lib/result-schema';
import { buildBenchPagesInto, serveStatic } from './lib/serve';
import { percentile, round, summarize } from './lib/stats';
import type { SearchBenchPage } from './pages/search-page';
import type { BenchQuery } from './pages/search-queries';
import type { SearchWay } from './pages/search.worker';

const DEFAULT_RECORDS = 500_000;
const DEFAULT_PAIRS = 5;
const RECORDS = Number(option('records') ?? (smoke ? 10_000 : DEFAULT_RECORDS));
const PAIRS = Number(option('pairs') ?? (smoke ? 2 : DEFAULT_PAIRS));
const SIZE = smoke ? 'smoke' : RECORDS === DEFAULT_RECORDS && PAIRS === DEFAULT_PAIRS ? 'full' : 'custom';
const SEED = 1;
const QUERY_SEED = 20_250_616;
/** A fixed "now" for the data and the queries: valid transactions expire after it. */
const NOW_MS = Date.parse('2025-06-16T17:00:00Z');
const NOW_SECONDS = Math.floor(NOW_MS / 1000);
/** The demo locations plus more, as an officer covering 40 lots would have. */
const LOCATION_IDS = [...DEMO_LOCATION_IDS, ...Array.from({ length: 40 - DEMO_LOCATION_IDS.length }, (_, i) => 1001 + i)];
const THROTTLE_RATE = 6;
/** The search bench's pages are built apart (bench/results/dist-search), so other benches' builds cannot clash. */
const SEARCH_DIST = path.join(RESULTS_DIR, 'dist-search');
const INDEX_MB_GOAL = 16;
const AT_MOST_PLAIN_P50 = { op: '<=', target: 1 } as const;

if (!Number.isInteger(RECORDS) || RECORDS < 100) throw new Error(`--records must be an integer ≥ 100, not ${option('records')}`);
if (!Number.isInteger(PAIRS) || PAIRS < 1) throw new Error(`--pairs must be a positive integer, not ${option('pairs')}`);

const started = performance.now();
const step = (message: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`);

/** The page's harness object; page.evaluate callbacks run in the page and reach it through window. */
type BenchWindow = { searchBench: SearchBenchPage };
const bench = (page: Page) => ({
  workerRound: (queries: BenchQuery[], similar: boolean, way: SearchWay) =>
    page.evaluate(([qs, now, s, w]) => (window as unknown as BenchWindow).searchBench.workerRound(qs, now, s, w), [queries, NOW_SECONDS, similar, way] as const),
  pageRound: (queries: BenchQuery[], similar: boolean, way: SearchWay) =>
    page.evaluate(([qs, now, s, w]) => (window as unknown as BenchWindow).searchBench.pageRound(qs, now, s, w), [queries, NOW_SECONDS, similar, way] as const),
  spin: () => page.evaluate(() => (window as unknown as BenchWindow).searchBench.spin()),
});

const p = (values: readonly number[], rank: number) => percentile([...values].sort((a, b) => a - b), rank);

/** Per query length (1–7): p50 and p95 of the index's searches over every pair. */
function byLength(ms: readonly number[], queries: readonly BenchQuery[]) {
  return Object.fromEntries(
    [1, 2, 3, 4, 5, 6, 7].map((length) => {
      const of = ms.filter((_, i) => queries[i % queries.length]!.text.trim().length === length);
      return [length, { p50: round(p(of, 50)), p95: round(p(of, 95)) }];
    }),
  );
}

async function main(): Promise<void> {
  const run = startBenchRun({ bench: 'search', title: 'Plate search', size: SIZE, options: { records: RECORDS, pairs: PAIRS, throttleRate: THROTTLE_RATE } });
  step(`building the search page (${path.relative(process.cwd(), SEARCH_DIST)})`);
  await buildBenchPagesInto(['search'], SEARCH_DIST);
  const server = await serveStatic(SEARCH_DIST);
  let chromium: OnDiskChromium | null = null;
  try {
    chromium = await launchChromiumOnDisk();
    const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    echoPageConsole(page, '[page]');
    await page.goto(`${server.origin}/search.html`);
    const b = bench(page);
    const isolated = await page.evaluate(() => (window as unknown as BenchWindow).searchBench.crossOriginIsolated());

    step(`generating ${RECORDS} records, writing them to IndexedDB (on disk) and the index in 2000-record pages (worker)`);
    const load = await page.evaluate((options) => (window as unknown as BenchWindow).searchBench.load(options), {
      total: RECORDS,
      seed: SEED,
      nowMs: NOW_MS,
      locationIds: LOCATION_IDS,
      querySeed: QUERY_SEED,
    });
    // --smoke: every fourth query of the mix (all lengths still), to prove the bench runs in seconds.
    const queries = smoke ? load.queries.filter((_, i) => i % 4 === 0) : load.queries;
    step(`loaded ${load.records} records (IndexedDB ${round(load.idbWriteMs / 1000)} s, index ${round(load.indexUpsertMs)} ms); checking the plain scan against the index`);
    const wrong = await page.evaluate(([qs, now]) => (window as unknown as BenchWindow).searchBench.disagreements(qs, now), [queries, NOW_SECONDS] as const);

    // Warm-up (JIT, IndexedDB caches): one round of each way and mode, not counted.
    for (const similar of [false, true]) for (const way of ['index', 'plain'] as const) await b.workerRound(queries, similar, way);

    // 1. In the worker: the index's p95 against the plain scan's p50, each round the whole mix, plus the row reads.
    const indexMs: Record<'exact' | 'similar', number[]> = { exact: [], similar: [] };
    const workerPairs = async (similar: boolean): Promise<Pair[]> =>
      alternate(
        PAIRS,
        async () => {
          const timings = await b.workerRound(queries, similar, 'index');
          const ms = timings.map((t) => t.matchMs + t.fetchMs);
          indexMs[similar ? 'similar' : 'exact'].push(...ms);
          return p(ms, 95);
        },
        async () => p((await b.workerRound(queries, similar, 'plain')).map((t) => t.matchMs + t.fetchMs), 50),
      );
    step(`worker: ${PAIRS} pairs of (index round, plain-scan round) over ${queries.length} queries, exact`);
    const workerExact = await workerPairs(false);
    step(`worker: ${PAIRS} pairs, similar characters on`);
    const workerSimilar = await workerPairs(true);

    // 3. Cold start against a plain get, each in a fresh worker (the page's data is taken from the loaded worker first).
    step('saving the snapshot (and a plain value of its size); copying the index and the plates to the page');
    const saved = await page.evaluate(() => (window as unknown as BenchWindow).searchBench.saveSnapshot());
    const pageData = await page.evaluate(() => (window as unknown as BenchWindow).searchBench.loadPageData());
    await page.evaluate(() => (window as unknown as BenchWindow).searchBench.stopWorker());
    const coldQuery = queries.find((q) => q.kind === 'substring' && q.text.length === 3) ?? queries[0]!;
    step(`cold start: ${PAIRS} pairs of (fresh worker from the snapshot, fresh worker's plain get of ${round(saved.plainBytes / 1e6)} MB)`);
    let coldSizes = true;
    const coldPairs = await alternate(
      PAIRS,
      async () => {
        const cold = await page.evaluate(([q, now]) => (window as unknown as BenchWindow).searchBench.coldStart(q, now), [coldQuery, NOW_SECONDS] as const);
        coldSizes &&= cold.size === load.indexSize;
        return cold.totalMs;
      },
      async () => {
        const plain = await page.evaluate(() => (window as unknown as BenchWindow).searchBench.plainColdGet());
        coldSizes &&= plain.bytes === saved.plainBytes;
        return plain.totalMs;
      },
    );

    // 2. On the page at 6× CPU: the same module and the same plain scan, throttled alike.
    for (const similar of [false, true]) for (const way of ['index', 'plain'] as const) await b.pageRound(queries, similar, way);
    const throttle = await cpuThrottle(page);
    const atFullSpeed = median([await b.spin(), await b.spin(), await b.spin()]);
    let slowdown = Number.NaN;
    const pagePairs = async (similar: boolean): Promise<Pair[]> =>
      alternate(
        PAIRS,
        async () => p(await b.pageRound(queries, similar, 'index'), 95),
        async () => p(await b.pageRound(queries, similar, 'plain'), 50),
      );
    let pageExact: Pair[];
    let pageSimilar: Pair[];
    try {
      await throttle.set(THROTTLE_RATE);
      slowdown = median([await b.spin(), await b.spin(), await b.spin()]) / atFullSpeed;
      step(`page at ${THROTTLE_RATE}× CPU (measured ${round(slowdown)}×): ${PAIRS} pairs, exact, then similar characters on`);
      pageExact = await pagePairs(false);
      pageSimilar = await pagePairs(true);
    } finally {
      await throttle.release();
    }

    const indexMB = load.indexBytes / 1e6; // decimal MB, the stricter reading of the goal
    const upserts = summarize(load.upsertPageMs);
    const checks: Check[] = [
      { name: 'records loaded', pass: load.records === RECORDS, detail: `${load.records} of ${RECORDS}` },
      {
        name: 'plain scan gives the index’s totals and page keys for every query (exact and similar)',
        pass: wrong.length === 0,
        detail: wrong.length === 0 ? `${queries.length * 2} queries` : `${wrong.length} differ, e.g. ${wrong[0]}`,
      },
      { name: 'cold start rebuilt the whole index; the plain get read the whole value', pass: coldSizes },
      { name: 'cross-origin isolated (5 µs timers), page and worker', pass: isolated && load.crossOriginIsolated },
      { name: `CPU throttle applied (spin loop at least ${THROTTLE_RATE / 2}× slower)`, pass: slowdown >= THROTTLE_RATE / 2, detail: `${round(slowdown)}×` },
    ];
    const worker = (similar: boolean) => `worker search p95${similar ? ', similar on' : ''} (index + row reads)`;
    const pageSide = (similar: boolean) => `page index p95 at ${THROTTLE_RATE}× CPU${similar ? ', similar on' : ''}`;
    await run.finish({
      checks,
      ratios: [
        ratioFigure(
          { key: 'workerSearchP95VsPlainScanP50', name: `${worker(false)} ÷ plain scan p50, ${RECORDS} records on disk`, figureLabel: worker(false), baselineLabel: 'plain scan + the same row reads, p50', unit: 'ms', goal: AT_MOST_PLAIN_P50 },
          workerExact,
        ),
        ratioFigure(
          { key: 'workerSimilarP95VsPlainScanP50', name: `${worker(true)} ÷ plain scan p50 (folded plates)`, figureLabel: worker(true), baselineLabel: 'plain scan of folded plates + the same row reads, p50', unit: 'ms', goal: AT_MOST_PLAIN_P50 },
          workerSimilar,
        ),
        ratioFigure(
          { key: 'page6xSearchP95VsPlainScanP50', name: `${pageSide(false)} ÷ plain scan p50, same throttle`, figureLabel: pageSide(false), baselineLabel: `plain scan on the page at ${THROTTLE_RATE}×, p50`, unit: 'ms', goal: AT_MOST_PLAIN_P50 },
          pageExact,
        ),
        ratioFigure(
          { key: 'page6xSimilarP95VsPlainScanP50', name: `${pageSide(true)} ÷ plain scan p50, same throttle`, figureLabel: pageSide(true), baselineLabel: `plain scan of folded plates on the page at ${THROTTLE_RATE}×, p50`, unit: 'ms', goal: AT_MOST_PLAIN_P50 },
          pageSimilar,
        ),
        ratioFigure(
          { key: 'coldStartVsPlainGet', name: 'cold start from the stored snapshot ÷ plain get of a value its size, fresh worker', figureLabel: 'fresh worker → snapshot read, index rebuilt, first answer', baselineLabel: 'fresh worker → plain get of the same bytes', unit: 'ms', goal: { op: '<=', target: 1.3 } },
          coldPairs,
        ),
      ],
      absolutes: [
        absolute('indexMB', 'index memory (10^6 bytes)', 'MB', indexMB, { op: '<=', target: INDEX_MB_GOAL }),
        absolute('upsertPageP95Ms', 'index upsert per 2000-record sync page, p95', 'ms', upserts.p95),
        absolute('snapshotSaveMs', 'snapshot save to IndexedDB', 'ms', saved.ms),
      ],
      details: {
        records: load.records,
        recordsByType: load.recordsByType,
        queries: queries.length,
        queryMix: '7 lengths × (16 substrings of stored plates + 4 random strings); 1/3 with a location, 2/16 later pages',
        pairShape: 'figure: the p95 of one round of the mix; baseline: the p50 of one round of the same mix, the other way',
        workerIndexByQueryLength: { exact: byLength(indexMs.exact, queries), similar: byLength(indexMs.similar, queries) },
        throttle: { asked: THROTTLE_RATE, measured: round(slowdown) },
        indexBytes: load.indexBytes,
        indexEntries: load.indexSize,
        indexBuild: { pages: upserts.n, totalMs: round(load.indexUpsertMs), pageP50Ms: round(upserts.p50), pageMaxMs: round(upserts.max), firstQueryMs: round(load.firstQueryMs) },
        load: { generateMs: round(load.generateMs), idbWriteMs: round(load.idbWriteMs), idbRecordsPerSecond: Math.round(load.records / (load.idbWriteMs / 1000)) },
        snapshot: { bytes: saved.bytes, plainValueBytes: saved.plainBytes, pageTransferMs: round(pageData.transferMs), pageFromSnapshotMs: round(pageData.fromSnapshotMs) },
        coldQuery: coldQuery.text,
      },
      versions: { chromium: chromium.version },
    });
  } finally {
    await chromium?.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  // A benchmark reports; it does not fail a build. `bench:smoke` notices the missing JSON.
  console.error('bench:search did not complete:', error);
  process.exitCode = 1;
});
