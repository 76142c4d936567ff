import * as Comlink from 'comlink';
import { PlateIndex } from '../../src/worker/plate-index';
import type { BenchQuery } from './search-queries';
import type { LoadOptions, SearchWorkerApi } from './search.worker';

/**
 * The bench page: starts the worker, relays the harness's steps to it, and runs the same PlateIndex module on the
 * main thread (where DevTools CPU throttling applies). bench/search.bench.ts drives it through `window.searchBench`.
 */
let worker: Comlink.Remote<SearchWorkerApi> | null = null;
let pageIndex: PlateIndex | null = null;

function startWorker(): Comlink.Remote<SearchWorkerApi> {
  const raw = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module', name: 'search-bench' });
  raw.onerror = (event) => console.error(`search worker: ${event.message}`);
  worker = Comlink.wrap<SearchWorkerApi>(raw);
  return worker;
}

function requireWorker(): Comlink.Remote<SearchWorkerApi> {
  if (worker === null) throw new Error('worker not started');
  return worker;
}

const searchBench = {
  crossOriginIsolated: () => self.crossOriginIsolated,

  load: (options: LoadOptions) => startWorker().load(options),

  /**
   * Each query through the worker (with similar characters when `similar`): its own match time, the page's round
   * trip (match + row fetch + messages), and the matches found in all categories (total, and exact among them).
   */
  async workerSearch(queries: BenchQuery[], nowSeconds: number, rounds: number, similar = false) {
    const remote = requireWorker();
    const matchMs: number[] = [];
    const fetchMs: number[] = [];
    const roundTripMs: number[] = [];
    const lengths: number[] = [];
    const matched: number[] = [];
    const exactMatched: number[] = [];
    const sum = (totals: Record<string, number>) => Object.values(totals).reduce((total, n) => total + n, 0);
    for (let round = 0; round < rounds; round++) {
      for (const query of queries) {
        const started = performance.now();
        const timing = await remote.search(query, nowSeconds, similar);
        roundTripMs.push(performance.now() - started);
        matchMs.push(timing.matchMs);
        fetchMs.push(timing.fetchMs);
        lengths.push(query.text.trim().length);
        matched.push(sum(timing.totals));
        exactMatched.push(sum(timing.exactTotals));
      }
    }
    return { matchMs, fetchMs, roundTripMs, lengths, matched, exactMatched };
  },

  baseline: (queries: BenchQuery[], nowSeconds: number, budgetMs: number, minimum: number) =>
    requireWorker().baseline(queries, nowSeconds, budgetMs, minimum),

  saveSnapshot: () => requireWorker().saveSnapshot(),

  /** After a reload: from creating the worker to the first answer, rebuilt from the stored snapshot. */
  async coldStart(query: BenchQuery, nowSeconds: number) {
    const started = performance.now();
    const breakdown = await startWorker().openFromSnapshot(query, nowSeconds);
    return { totalMs: performance.now() - started, ...breakdown };
  },

  /** Copies the worker's index to the page (a structured clone of the snapshot). */
  async loadPageIndex() {
    const started = performance.now();
    const snapshot = await requireWorker().snapshot();
    const received = performance.now();
    pageIndex = PlateIndex.fromSnapshot(snapshot);
    return { transferMs: received - started, fromSnapshotMs: performance.now() - received, size: pageIndex.size };
  },

  /** The index module on the main thread; the harness throttles the CPU around this call. */
  pageSearch(queries: BenchQuery[], nowSeconds: number, rounds: number, similar = false) {
    if (pageIndex === null) throw new Error('page index not loaded');
    const ms: number[] = [];
    const lengths: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const query of queries) {
        const started = performance.now();
        pageIndex.match({ ...query, nowSeconds, similar });
        ms.push(performance.now() - started);
        lengths.push(query.text.trim().length);
      }
    }
    return { ms, lengths };
  },

  clear: () => requireWorker().clear(),
};

export type SearchBenchPage = typeof searchBench;
(window as unknown as { searchBench: SearchBenchPage }).searchBench = searchBench;
