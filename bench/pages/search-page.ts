import * as Comlink from 'comlink';
import { PlateIndex } from '../../src/worker/plate-index';
import { plainMatch, type PlainPlates } from './plain-scan';
import { spin } from './spin';
import type { BenchQuery } from './search-queries';
import type { LoadOptions, SearchWay, SearchWorkerApi } from './search.worker';

/**
 * The bench page: starts the worker, relays the harness's steps to it, and runs the same PlateIndex module and the
 * same plain scan on the main thread (where DevTools CPU throttling applies). bench/search.bench.ts drives it through
 * `window.searchBench`.
 */
let raw: Worker | null = null;
let worker: Comlink.Remote<SearchWorkerApi> | null = null;
let pageIndex: PlateIndex | null = null;
let pagePlain: PlainPlates | null = null;

function startWorker(): Comlink.Remote<SearchWorkerApi> {
  raw?.terminate();
  raw = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module', name: 'search-bench' });
  raw.onerror = (event) => console.error(`search worker: ${event.message}`);
  worker = Comlink.wrap<SearchWorkerApi>(raw);
  return worker;
}

function stopWorker(): void {
  raw?.terminate();
  raw = null;
  worker = null;
}

function requireWorker(): Comlink.Remote<SearchWorkerApi> {
  if (worker === null) throw new Error('worker not started');
  return worker;
}

/** From creating a fresh worker to its answer to `ask`; the worker is ended after. */
async function inFreshWorker<T>(ask: (remote: Comlink.Remote<SearchWorkerApi>) => Promise<T>): Promise<T & { totalMs: number }> {
  stopWorker();
  const started = performance.now();
  const answer = await ask(startWorker());
  const totalMs = performance.now() - started;
  stopWorker();
  return { ...answer, totalMs };
}

const searchBench = {
  crossOriginIsolated: () => self.crossOriginIsolated,

  load: (options: LoadOptions) => startWorker().load(options),

  /** The mix once in the worker, the given way; each query timed there from asking to its rows read. */
  workerRound: (queries: BenchQuery[], nowSeconds: number, similar: boolean, way: SearchWay) =>
    requireWorker().round(queries, nowSeconds, similar, way),

  disagreements: (queries: BenchQuery[], nowSeconds: number) => requireWorker().disagreements(queries, nowSeconds),

  saveSnapshot: () => requireWorker().saveSnapshot(),

  /** Copies the worker's index (a structured clone of the snapshot) and the plain scan's plates to the page. */
  async loadPageData() {
    const started = performance.now();
    const snapshot = await requireWorker().snapshot();
    const received = performance.now();
    pageIndex = PlateIndex.fromSnapshot(snapshot);
    const fromSnapshotMs = performance.now() - received;
    pagePlain = await requireWorker().plainData();
    return { transferMs: received - started, fromSnapshotMs, size: pageIndex.size };
  },

  /** Cold start: a fresh worker opens the store, reads the snapshot, rebuilds the index and answers one query. */
  coldStart: (query: BenchQuery, nowSeconds: number) => inFreshWorker((remote) => remote.openFromSnapshot(query, nowSeconds)),

  /** The cold start's baseline: a fresh worker opens a database and `get`s one value the size of the snapshot. */
  plainColdGet: () => inFreshWorker((remote) => remote.plainGet()),

  stopWorker,

  /** The mix once on the main thread, the given way (no row reads: the page has no store); the harness throttles it. */
  pageRound(queries: BenchQuery[], nowSeconds: number, similar: boolean, way: SearchWay): number[] {
    if (pageIndex === null || pagePlain === null) throw new Error('page data not loaded');
    const ms: number[] = [];
    for (const query of queries) {
      const request = { ...query, nowSeconds, similar };
      const started = performance.now();
      if (way === 'index') pageIndex.match(request);
      else plainMatch(pagePlain, request);
      ms.push(performance.now() - started);
    }
    return ms;
  },

  spin,
};

export type SearchBenchPage = typeof searchBench;
(window as unknown as { searchBench: SearchBenchPage }).searchBench = searchBench;
