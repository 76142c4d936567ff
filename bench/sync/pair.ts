/**
 * One pair of the sync bench in a new browser (a temporary profile on disk, as on an officer's phone): the fresh
 * sync of the real enforcement worker and everything measured after it on the same store (its expansion, the stale
 * sync, the purge, a reload), each beside its plain baseline in the same browser (docs/benchmarks.md). The fresh
 * sync and its baseline (the same pages fetched and parsed by a bare worker) alternate which goes first; the per-row
 * ceiling is measured just before the sync and just after its expansion.
 */
import { SYNC_PAGE_SIZE, SYNC_TYPES } from '../../src/contract/enforcement';
import { STORE_NAME } from '../../src/worker/store';
import { attachToWorker, echoPageConsole, launchChromiumOnDisk, type WorkerCdpSession } from '../lib/chromium';
import { alternate, type Pair } from '../lib/method';
import type { RoundOptions, SyncBenchPage } from '../pages/sync-page';
import type { PageSource } from '../pages/sync-probe-pages';
import { totalsMismatches, type Expected } from './expected';
import { heapUsedMB, sampleHeap } from './worker-heap';

/** The page's harness object; page.evaluate callbacks run in the page and reach it through window. */
type BenchWindow = { syncBench: SyncBenchPage };

export interface PairSetup {
  pair: number;
  pageOrigin: string;
  apiUrl: string;
  /** The API's pages from memory: the ceiling's rows. */
  replayUrl: string;
  /** Authorization and session headers of the officer. */
  headers: Record<string, string>;
  idToken: string;
  sessionToken: string;
  locationIds: number[];
  nowMs: number;
  purgeAdvanceMs: number;
  expected: Expected;
  probeIntervalMs: number;
  searchCeilingMs: number;
  /** Rows of each type the ceiling puts, before and after the sync. */
  ceilingPerType: number;
  /** Stale sync and its baseline alternate this many times in each pair. */
  stalePairs: number;
  /** Idle searches at most, per baseline. */
  idleSearchesMax: number;
  maxCallsPerType: number;
}

const SCRATCH = { ceilingBefore: 'lpa-bench-ceiling-before', ceilingAfter: 'lpa-bench-ceiling-after', stale: 'lpa-bench-stale', purge: 'lpa-bench-purge' };
/** Rows a purge baseline transaction deletes (issue 35: "10-row delete transactions"), and their size (≈ a record as JSON). */
const PURGE_BASELINE_ROWS = 10;
const ROW_BYTES = 280;

export type PairResult = Awaited<ReturnType<typeof runPair>>;

export async function runPair(setup: PairSetup, log: (message: string) => void) {
  const { expected } = setup;
  const chromium = await launchChromiumOnDisk();
  let session: WorkerCdpSession | null = null;
  try {
    const page = await chromium.context.newPage();
    echoPageConsole(page, '[page]');
    await page.goto(`${setup.pageOrigin}/sync.html`);
    type Method = keyof SyncBenchPage;
    type Args<K extends Method> = SyncBenchPage[K] extends (...args: infer A) => unknown ? A : never;
    type Answer<K extends Method> = SyncBenchPage[K] extends (...args: never[]) => infer R ? Awaited<R> : never;
    /** Calls the page's harness (window.syncBench) with arguments that survive structured cloning. */
    const call = <K extends Method>(method: K, ...args: Args<K>): Promise<Answer<K>> =>
      page.evaluate(
        ([name, values]) => {
          const harness = (window as unknown as BenchWindow).syncBench as unknown as Record<string, (...a: unknown[]) => unknown>;
          return harness[name]!(...values);
        },
        [method, args as unknown[]] as const,
      ) as Promise<Answer<K>>;
    const isolated = await call('crossOriginIsolated');
    const longTaskSupported = await call('longTaskSupported');
    const selfTest = await call('longTaskSelfTest', 80);
    await call('startWorker');
    const opened = await call('open');
    if (!opened.status.available || !opened.status.empty) throw new Error(`the store is not fresh: ${JSON.stringify(opened.status)}`);
    session = await attachToWorker(chromium.browser, 'enforcement.worker');
    const workerSession = session;

    const apiSource: PageSource = { apiBase: setup.apiUrl, headers: setup.headers, locationIds: setup.locationIds, pageSize: SYNC_PAGE_SIZE };
    const replaySource: PageSource = { ...apiSource, apiBase: setup.replayUrl };
    const ceiling = (scratchDb: string) =>
      call('ceiling', { source: replaySource, types: [...SYNC_TYPES], scratchDb, perTypeLimit: setup.ceilingPerType });
    const bareSync = () => call('bareSync', apiSource, [...SYNC_TYPES]);

    // Baseline first in odd pairs, figure first in even ones (bench/lib/method.ts alternate's order).
    const bareFirst = setup.pair % 2 === 1 ? await bareSync() : null;
    log(bareFirst ? `pair ${setup.pair}: bare worker paged ${bareFirst.records} records in ${Math.round(bareFirst.pageMs)} ms` : `pair ${setup.pair}`);
    const ceilingBefore = await ceiling(SCRATCH.ceilingBefore);

    const roundOptions: RoundOptions = {
      apiBase: setup.apiUrl,
      locationIds: setup.locationIds,
      now: setup.nowMs,
      idToken: setup.idToken,
      sessionToken: setup.sessionToken,
      probe: { text: expected.probeText, intervalMs: setup.probeIntervalMs, ceilingMs: setup.searchCeilingMs },
      maxCallsPerType: setup.maxCallsPerType,
    };
    const heapSampler = sampleHeap(workerSession);
    // Searched while expansion runs: the known plates (the first one times "searchable") and one character.
    const duringTexts = expected.texts.slice(0, expected.knownPlates + 1);
    const fresh = await call('freshSync', roundOptions, duringTexts, STORE_NAME);
    const heapSamples = await heapSampler.stop();
    const heapAsFoundMB = await heapUsedMB(workerSession);
    const heapAfterGcMB = await heapUsedMB(workerSession, true);
    // The officer's search goes on over the expansion (started once the forced GC above is over).
    await call('startExpansionSearches', expected.probeText, setup.probeIntervalMs, setup.nowMs, setup.searchCeilingMs);
    const statusAfterSync = await call('status');
    const flushedAt = await call('flushed');
    const expansionSearchMs = await call('expansionSearches');
    const flushLongTasks = await call('longTasksBetween', fresh.round.returnedAt, flushedAt);
    const statusAfterFlush = await call('status');
    const committedAfterFlush = await call('committedRecords', STORE_NAME);
    const heapAfterFlushGcMB = await heapUsedMB(workerSession, true);
    const fullCheck = await call('verify', expected.texts, setup.nowMs);
    log(`pair ${setup.pair}: sync returned ${Math.round(fresh.round.returnedAt - fresh.round.startedAt)} ms, flush() ${Math.round(flushedAt - fresh.round.startedAt)} ms after the start`);

    const ceilingAfter = await ceiling(SCRATCH.ceilingAfter);
    const snapshotBytes = await call('snapshotBytes', STORE_NAME);
    // The same searches on the idle worker (the index whole, nothing else running).
    const idleCount = Math.min(setup.idleSearchesMax, Math.max(20, fresh.round.probeMs.length, expansionSearchMs.length));
    const idleBeforePurge = await call('idleSearches', expected.probeText, idleCount, setup.nowMs, setup.searchCeilingMs);

    // Stale sync: nothing new on the server; the baseline's empty pages are asked after the newest record (+ a day).
    const stale: { records: number; failures: number }[] = [];
    const stalePairs: Pair[] = await alternate(
      setup.stalePairs,
      async () => {
        const round = await call('syncRound', { ...roundOptions, probe: null });
        stale.push({ records: round.types.reduce((sum, t) => sum + t.records, 0), failures: round.types.filter((t) => t.failure !== null).length });
        return round.returnedAt - round.startedAt;
      },
      () => call('staleBaseline', apiSource, [...SYNC_TYPES], setup.nowMs + 86_400_000, SCRATCH.stale),
    );

    const purge = await call('purge', setup.nowMs + setup.purgeAdvanceMs, expected.probeText, setup.searchCeilingMs);
    const statusAfterPurge = await call('status');
    const idleAfterPurge = await call('idleSearches', expected.probeText, Math.min(setup.idleSearchesMax, Math.max(20, purge.searchMs.length)), setup.nowMs, setup.searchCeilingMs);
    const purgeBaselineMs = await call('purgeBaseline', {
      scratchDb: SCRATCH.purge,
      transactions: purge.transactionMs.length,
      rows: PURGE_BASELINE_ROWS,
      rowBytes: ROW_BYTES,
    });
    log(`pair ${setup.pair}: purge ${Math.round(purge.ms)} ms, ${purge.purged} records in ${purge.transactions} transactions`);

    const bareLast = bareFirst === null ? await bareSync() : null;
    const bare = bareFirst ?? bareLast!;

    // Reload: a new worker opens the index snapshot; the complete check against what the purge left.
    await workerSession.detach();
    session = null;
    await page.reload();
    const cold = await call('coldStart', expected.probeText, setup.nowMs);
    const afterReload = await call('verify', expected.texts, setup.nowMs);

    const { round, verification, committed } = fresh;
    const synced = round.types.reduce((sum, type) => sum + type.records, 0);
    const durableMs = (round.lastProgressAt ?? round.returnedAt) - round.startedAt;
    const duringProblems = totalsMismatches(verification.totals, expected.totals.slice(0, duringTexts.length), duringTexts);
    const statusTotals = (status: typeof statusAfterFlush) => Object.fromEntries(status.types.map((t) => [t.type, t.totalRecords])) as Record<string, number>;
    const heldMatches = (status: typeof statusAfterFlush) => SYNC_TYPES.every((type) => statusTotals(status)[type] === expected.heldByType[type]);
    return {
      pair: setup.pair,
      chromium: chromium.version,
      bareFirst: bareFirst !== null,
      timeToSearchableMs: verification.answeredAt[0]! - round.startedAt,
      timeToReturnedMs: round.returnedAt - round.startedAt,
      timeToDurableMs: durableMs,
      timeToSpecTablesMs: flushedAt - round.startedAt,
      bare,
      synced,
      durableRecordsPerSec: synced / (durableMs / 1000),
      ceilingBefore,
      ceilingAfter,
      search: { sync: round.probeMs, expansion: expansionSearchMs, purge: purge.searchMs, idleBeforePurge, idleAfterPurge },
      stalePairs,
      purge: { ms: purge.ms, purged: purge.purged, transactions: purge.transactions, longestMs: purge.longestTransactionMs, transactionMs: purge.transactionMs, baselineMs: purgeBaselineMs },
      cold,
      heap: { afterGcMB: heapAfterGcMB, asFoundMB: heapAsFoundMB, peakSampledMB: Math.max(heapAsFoundMB, ...heapSamples), afterFlushGcMB: heapAfterFlushGcMB },
      snapshotBytes,
      longTasks: { sync: round.longTasks.length, flush: flushLongTasks.length, selfTest: selfTest.length, supported: longTaskSupported },
      isolated,
      types: round.types.map((t) => ({ type: t.type, calls: t.calls, pages: t.pages, records: t.records, ms: Math.round(t.ms), outcomes: t.outcomes.join(',') })),
      checks: {
        synced,
        failures: round.types.filter((type) => type.failure !== null).length + stale.reduce((sum, s) => sum + s.failures, 0),
        firstSearchCorrect: totalsMismatches(verification.totals.slice(0, 1), expected.totals.slice(0, 1), expected.texts.slice(0, 1)).length === 0,
        searchProblems: [...duringProblems, ...totalsMismatches(fullCheck.totals, expected.totals, expected.texts)],
        committedAfterSync: committed.total,
        committedAfterFlush: committedAfterFlush.total,
        stagedAfterFlush: committedAfterFlush.stagedBeyondWatermark,
        statusAfterSync: heldMatches(statusAfterSync),
        statusAfterFlush: heldMatches(statusAfterFlush),
        statusAfterPurge: statusTotals(statusAfterPurge),
        purged: purge.purged,
        coldProblems: totalsMismatches(afterReload.totals, expected.totalsAfterPurge, expected.texts),
        staleRecords: stale.reduce((sum, s) => sum + s.records, 0),
        bareRecords: bare.records,
        ceilingRecords: [ceilingBefore.records, ceilingAfter.records],
      },
    };
  } finally {
    if (session !== null) await session.detach().catch(() => undefined);
    await chromium.close();
  }
}
