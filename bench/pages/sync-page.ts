import * as Comlink from 'comlink';
import { SYNC_TYPES, type SyncType } from '../../src/contract/enforcement';
import type { EnforcementApi } from '../../src/worker/enforcement-api';
import type { PurgeStats } from '../../src/worker/store-local';
import {
  SEARCH_CATEGORIES,
  type PlateSearchRequest,
  type SearchCategory,
  type StoreStatus,
  type SyncProgress,
  type SyncTypeResult,
} from '../../src/worker/enforcement-worker-api';
import type { PageSource } from './sync-probe-pages';
import type { CeilingOptions, ProbeApi } from './sync-probe.worker';

/**
 * The sync bench page: runs the REAL enforcement worker (src/worker/enforcement.worker.ts, the module the console
 * loads) through Comlink, drives it as the sync machine would, and watches the main thread for long tasks.
 * bench/sync.bench.ts drives it through `window.syncBench`; every time here is the page's performance.now().
 */

export interface LongTask {
  startTime: number;
  duration: number;
}

const longTasks: LongTask[] = [];
const longTaskSupported = PerformanceObserver.supportedEntryTypes.includes('longtask');
if (longTaskSupported) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const longTasksBetween = (from: number, to: number) => longTasks.filter((task) => task.startTime >= from && task.startTime < to);

let worker: Comlink.Remote<EnforcementApi> | null = null;
let rawWorker: Worker | null = null;
let probe: Comlink.Remote<ProbeApi> | null = null;
let expansionSearching: Promise<(number | null)[]> | null = null;
let flushing: Promise<number> | null = null;

function requireWorker(): Comlink.Remote<EnforcementApi> {
  if (worker === null) throw new Error('enforcement worker not started');
  return worker;
}

function requireProbe(): Comlink.Remote<ProbeApi> {
  if (probe === null) {
    const raw = new Worker(new URL('./sync-probe.worker.ts', import.meta.url), { type: 'module', name: 'sync-bench-probe' });
    raw.onerror = (event) => console.error(`probe worker: ${event.message}`);
    probe = Comlink.wrap<ProbeApi>(raw);
  }
  return probe;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One search's time from asking to the answer, or null when it is not answered within `ceilingMs` (the figure counts
 * it at the ceiling: bench/lib/method.ts percentileWithCeiling); the search is then left to finish on its own.
 */
async function timedSearch(request: PlateSearchRequest, ceilingMs: number): Promise<number | null> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered = requireWorker()
    .search(request)
    .then(() => performance.now() - started);
  const ceiling = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ceilingMs)));
  try {
    return await Promise.race([answered, ceiling]);
  } finally {
    clearTimeout(timer);
  }
}

/** `count` searches for `text` one after another (16 ms apart, a frame), on a worker doing nothing else. */
async function idleSearches(text: string, count: number, now: number, ceilingMs: number): Promise<(number | null)[]> {
  const searchMs: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    searchMs.push(await timedSearch({ text, now }, ceilingMs));
    await sleep(16);
  }
  return searchMs;
}

export interface RoundOptions {
  apiBase: string;
  locationIds: number[];
  now: number;
  idToken: string;
  sessionToken: string;
  /**
   * A search from the page every `intervalMs` while the round runs (what an officer waits for); null: none. A search
   * not answered within `ceilingMs` counts as null (at the ceiling), never dropped.
   */
  probe: { text: string; intervalMs: number; ceilingMs: number } | null;
  /** Safety stop for a type that keeps reporting the page cap. */
  maxCallsPerType: number;
}

export interface TypeRound {
  type: SyncType;
  calls: number;
  pages: number;
  records: number;
  ms: number;
  outcomes: string[];
  failure: string | null;
}

export interface RoundResult {
  startedAt: number;
  returnedAt: number;
  /** Arrival on the page of the last progress event (sent by the worker once a page is committed). */
  lastProgressAt: number | null;
  progressEvents: number;
  types: TypeRound[];
  /** Each probe search's time; null: not answered within the ceiling. */
  probeMs: (number | null)[];
  longTasks: LongTask[];
}

export interface VerifyResult {
  ms: number;
  totals: Record<SearchCategory, number>[];
  /** One query's round trip each. */
  queryMs: number[];
  /** When each answer arrived (page clock). */
  answeredAt: number[];
}

function describeOutcome(result: SyncTypeResult): string {
  if (result.outcome === 'done') return `done:${result.stoppedBy}`;
  if (result.outcome === 'skipped') return `skipped:${result.reason}`;
  return 'failed';
}

async function syncRound(options: RoundOptions): Promise<RoundResult> {
  const remote = requireWorker();
  const progressAt: number[] = [];
  const auth = Comlink.proxy({ getIdToken: async () => options.idToken, sessionToken: options.sessionToken });
  const onProgress = Comlink.proxy((_progress: SyncProgress) => {
    progressAt.push(performance.now());
  });
  const probeMs: (number | null)[] = [];
  let running = true;
  // The probe's pause ends as soon as the sync returns: awaiting a whole second of it there put 0–1000 ms of the
  // bench's own sleep into the time to searchable (measured from the first search after this returns).
  let endPause = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const startedAt = performance.now();

  const probing = (async () => {
    if (options.probe === null) return;
    const { text, intervalMs, ceilingMs } = options.probe;
    while (running) {
      await pause(intervalMs);
      if (!running) break;
      // The search still running when the sync returns is awaited and counted (as every other).
      probeMs.push(await timedSearch({ text, now: options.now }, ceilingMs));
    }
  })();

  const types: TypeRound[] = [];
  try {
    for (const type of SYNC_TYPES) {
      const typeStarted = performance.now();
      const round: TypeRound = { type, calls: 0, pages: 0, records: 0, ms: 0, outcomes: [], failure: null };
      // As the sync machine does: the same type again while it stops at the page cap (50 pages per call).
      for (;;) {
        round.calls++;
        const result = await remote.syncType({ type, apiBase: options.apiBase, locationIds: options.locationIds, now: options.now }, auth, onProgress);
        round.outcomes.push(describeOutcome(result));
        if (result.outcome !== 'skipped') {
          round.pages += result.pages;
          round.records += result.records;
        }
        if (result.outcome === 'failed') {
          round.failure = result.message;
          break;
        }
        if (result.outcome !== 'done' || result.stoppedBy !== 'pageCap' || round.calls >= options.maxCallsPerType) break;
      }
      round.ms = performance.now() - typeStarted;
      types.push(round);
    }
  } finally {
    running = false;
    endPause();
  }
  const returnedAt = performance.now();
  await probing;
  return {
    startedAt,
    returnedAt,
    lastProgressAt: progressAt.at(-1) ?? null,
    progressEvents: progressAt.length,
    types,
    probeMs,
    longTasks: longTasksBetween(startedAt, returnedAt),
  };
}

async function verify(texts: readonly string[], now: number): Promise<VerifyResult> {
  const remote = requireWorker();
  const started = performance.now();
  const totals: Record<SearchCategory, number>[] = [];
  const queryMs: number[] = [];
  const answeredAt: number[] = [];
  for (const text of texts) {
    const queryStarted = performance.now();
    const result = await remote.search({ text, now });
    answeredAt.push(performance.now());
    queryMs.push(answeredAt[answeredAt.length - 1]! - queryStarted);
    totals.push(Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, result[category].total])) as Record<SearchCategory, number>);
  }
  return { ms: performance.now() - started, totals, queryMs, answeredAt };
}

const syncBench = {
  crossOriginIsolated: () => self.crossOriginIsolated,
  longTaskSupported: () => longTaskSupported,

  /**
   * Busy-waits `ms` on the main thread in a task of its own (a timer: code run by DevTools' evaluate is not a task the
   * long-task observer reports), so the harness can check that the observer sees a ≥ 50 ms task.
   */
  async longTaskSelfTest(ms: number): Promise<LongTask[]> {
    const started = performance.now();
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        const busy = performance.now();
        while (performance.now() - busy < ms) {
          // busy
        }
        resolve();
      }, 0),
    );
    await sleep(500);
    return longTasksBetween(started, performance.now());
  },

  longTasksBetween,

  /** Creates the enforcement worker (the console's module, unchanged) and wraps it with Comlink. */
  startWorker(): number {
    const started = performance.now();
    rawWorker = new Worker(new URL('../../src/worker/enforcement.worker.ts', import.meta.url), { type: 'module', name: 'enforcement' });
    rawWorker.onerror = (event) => console.error(`enforcement worker: ${event.message}`);
    worker = Comlink.wrap<EnforcementApi>(rawWorker);
    return started;
  },

  async open(): Promise<{ ms: number; status: StoreStatus }> {
    const started = performance.now();
    const status = await requireWorker().open();
    return { ms: performance.now() - started, status };
  },

  status: () => requireWorker().status(),

  syncRound,

  /**
   * A fresh sync: the round; as soon as it returns, flush() is started (not awaited: `flushed()` reports when it
   * resolves) and the probe worker counts what is committed, while the verification searches run.
   */
  async freshSync(options: RoundOptions, verifyTexts: readonly string[], databaseName: string) {
    const round = await syncRound(options);
    flushing = requireWorker()
      .flush()
      .then(() => performance.now());
    const committed = requireProbe().committedRecords(databaseName);
    const verification = await verify(verifyTexts, options.now);
    const verifiedAt = performance.now();
    return { round, verification, verifiedAt, committed: await committed };
  },

  /**
   * The officer keeps searching while the staged pages are expanded into their tables: `text` every `intervalMs`
   * until the flush started by freshSync resolves, in the background (collected with expansionSearches()). Started by
   * the harness once it has measured the worker's heap, whose forced collection would otherwise pause a search.
   */
  startExpansionSearches(text: string, intervalMs: number, now: number, ceilingMs: number): void {
    const flushingNow = flushing;
    if (flushingNow === null) throw new Error('no flush started');
    let flushed = false;
    void flushingNow.finally(() => (flushed = true));
    expansionSearching = (async () => {
      const searchMs: (number | null)[] = [];
      while (!flushed) {
        await Promise.race([sleep(intervalMs), flushingNow]);
        if (flushed) break;
        // The search still running when flush() resolves is counted too.
        searchMs.push(await timedSearch({ text, now }, ceilingMs));
      }
      return searchMs;
    })();
  },

  /** The times (ms) of startExpansionSearches' searches, once the flush resolved. */
  async expansionSearches(): Promise<(number | null)[]> {
    return expansionSearching ?? [];
  },

  /** Waits for the flush started by freshSync; returns when it resolved (page clock). */
  async flushed(): Promise<number> {
    if (flushing === null) throw new Error('no flush started');
    return flushing;
  },

  async flush(): Promise<number> {
    const started = performance.now();
    await requireWorker().flush();
    return performance.now() - started;
  },

  verify,

  /**
   * The purge, with an officer searching meanwhile: `probeText` searched one at a time (a frame apart, as keystrokes
   * would) until the purge returns; each search's time from asking to the answer (rows fetched) is kept, the one still
   * running when the purge returns included (it was dropped before 2026-11-29, issue 35), and one not answered within
   * `ceilingMs` as null (counted at the ceiling).
   */
  async purge(now: number, probeText: string, ceilingMs: number): Promise<{ ms: number; purged: number; searchMs: (number | null)[] } & PurgeStats> {
    const remote = requireWorker();
    const started = performance.now();
    let done = false;
    const purging = remote.purge(now).finally(() => (done = true));
    const searchMs: (number | null)[] = [];
    while (!done) {
      searchMs.push(await timedSearch({ text: probeText, now }, ceilingMs));
      if (!done) await sleep(16);
    }
    const { purged } = await purging;
    const ms = performance.now() - started;
    return { ms, purged, searchMs, ...(await remote.lastPurge()) };
  },

  idleSearches,

  async search(request: PlateSearchRequest) {
    const started = performance.now();
    const result = await requireWorker().search(request);
    return { ms: performance.now() - started, result };
  },

  /** After a reload: from creating the worker to the first search answered (open() loads the index snapshot). */
  async coldStart(text: string, now: number) {
    const started = syncBench.startWorker();
    const remote = requireWorker();
    await remote.open();
    const opened = performance.now();
    const result = await remote.search({ text, now });
    const answered = performance.now();
    return {
      totalMs: answered - started,
      openMs: opened - started,
      firstSearchMs: answered - opened,
      totals: Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, result[category].total])) as Record<SearchCategory, number>,
    };
  },

  committedRecords: (name: string) => requireProbe().committedRecords(name),
  snapshotBytes: (name: string) => requireProbe().snapshotBytes(name),
  ceiling: (options: CeilingOptions) => requireProbe().ceiling(options),
  purgeBaseline: (options: { scratchDb: string; transactions: number; rows: number; rowBytes: number }) => requireProbe().purgeBaseline(options),

  /** The fresh sync's baseline in the bare probe worker, timed on the page as the sync is. */
  async bareSync(source: PageSource, types: readonly string[]) {
    const started = performance.now();
    const paged = await requireProbe().bareSync(source, types);
    return { ...paged, pageMs: performance.now() - started };
  },

  /** The stale sync's baseline (probe worker), timed on the page as the stale sync round is; the scratch store is opened first. */
  async staleBaseline(source: PageSource, types: readonly string[], afterAllMs: number, scratchDb: string): Promise<number> {
    await requireProbe().prepareStaleBaseline(scratchDb);
    const started = performance.now();
    await requireProbe().staleBaseline(source, types, afterAllMs);
    return performance.now() - started;
  },

  now: () => performance.now(),
};

export type SyncBenchPage = typeof syncBench;
(window as unknown as { syncBench: SyncBenchPage }).syncBench = syncBench;
