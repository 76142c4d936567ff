import { PURGE_AFTER_SECONDS, SYNC_MAX_PAGES, SYNC_PAGE_SIZE, SYNC_TYPES } from '../contract/enforcement';
import {
  SEARCH_CATEGORIES,
  type EnforcementWorkerApi,
  type PlateSearchRequest,
  type SearchAheadAnswers,
  type SearchAheadRequest,
  type StoreStatus,
  type SyncAuth,
  type SyncProgress,
  type SyncTypeRequest,
  type SyncTypeResult,
} from './enforcement-worker-api';
import {
  browserIndexedDb,
  describeError,
  NO_INDEXED_DB,
  STORE_NAME,
  type IndexedDbFactory,
} from './store';
import { PLATE_SYMBOLS } from './first-paint';
import { emptySearchResult, searchFirstPaint, searchStore } from './search-store';
import { LocalStore, noPurgeStats, type Log, type PurgeStats } from './store-local';
import { PAGE_TIMEOUT_MS } from './sync-page-fetch';
import { runSyncType, type SyncOptions } from './sync-type';
import { yieldToMessages } from './yield';

/**
 * The enforcement worker's API (src/worker/enforcement-worker-api.ts) as a plain module: enforcement.worker.ts only
 * exposes it with Comlink, and tests call it directly. See docs/enforcement-sync.md.
 */

export interface EnforcementApiOptions {
  /** IndexedDB to use; null for none (spec §8). Default: the browser's. */
  indexedDB?: IndexedDbFactory | null;
  databaseName?: string;
  fetch?: typeof globalThis.fetch;
  /** navigator.storage by default; null for none. */
  storage?: StorageManager | null;
  /** navigator.locks by default (serializes changes across tabs); null for none. */
  locks?: LockManager | null;
  pageTimeoutMs?: number;
  pageSize?: number;
  maxPages?: number;
  maxPendingPages?: number;
  /** What staged pages' rows may take in memory (STAGED_ROWS_MEMORY_CAP); 0 reads them from IndexedDB only. */
  stagedRowsMemoryBytes?: number;
  log?: Log;
}

/** What the worker exposes beyond the shared interface. */
export interface EnforcementApi extends EnforcementWorkerApi {
  /** Resolves once every synced record sits in its spec table (expansion of staged pages is done). */
  flush(): Promise<void>;
  /** The last purge's read-write transactions (PurgeStats; bench:sync). */
  lastPurge(): Promise<PurgeStats>;
  /** Cancels work in progress and closes the store; later calls find it unavailable. */
  close(): Promise<void>;
}

type Opened = { local: LocalStore; unavailable?: never } | { local?: never; unavailable: string; retry: boolean };

const LOCK_NAME = 'lpa-enforcement-store';

function browserNavigator(): Navigator | undefined {
  return (globalThis as { navigator?: Navigator }).navigator;
}

export function createEnforcementApi(options: EnforcementApiOptions = {}): EnforcementApi {
  const log: Log =
    options.log ?? ((message, error) => console.warn(`[enforcement worker] ${message}`, ...(error === undefined ? [] : [error])));
  const databaseName = options.databaseName ?? STORE_NAME;
  const storage = options.storage !== undefined ? options.storage : (browserNavigator()?.storage ?? null);
  const locks = options.locks !== undefined ? options.locks : (browserNavigator()?.locks ?? null);
  const syncOptions: SyncOptions = {
    fetch: options.fetch,
    pageTimeoutMs: options.pageTimeoutMs ?? PAGE_TIMEOUT_MS,
    pageSize: options.pageSize ?? SYNC_PAGE_SIZE,
    maxPages: options.maxPages ?? SYNC_MAX_PAGES,
    maxPendingPages: options.maxPendingPages ?? 3,
    log,
  };

  let opening: Promise<Opened> | null = null;
  let persistRequested = false;
  /** Whether opening the store deleted one of another version (StoreStatus.rebuilt). */
  let rebuiltStore = false;
  let closed = false;
  /** Bumped by clear and close: changes queued before it do not run. */
  let epoch = 0;
  let queue: Promise<unknown> = Promise.resolve();
  let running: AbortController | null = null;
  /** The wall clock of the latest sync, which also splits valid from expired when counts are refreshed. */
  let latestSyncNow: number | null = null;
  /** Counts searches and read-aheads: a read-ahead that sees it move on stops (its text is no longer the field's). */
  let searches = 0;

  function requestPersistence(): void {
    if (persistRequested || storage === null) return;
    persistRequested = true;
    // persist() exists on the page only (not in workers); the page should ask too.
    const persist = (storage as Partial<StorageManager>).persist;
    if (typeof persist !== 'function') return;
    persist.call(storage).catch((error: unknown) => log('Persistent storage was not granted', error));
  }

  async function openStore(): Promise<Opened> {
    requestPersistence();
    const factory = options.indexedDB === undefined ? browserIndexedDb() : (options.indexedDB ?? NO_INDEXED_DB);
    if (typeof factory === 'string') return { unavailable: factory, retry: false };
    try {
      const { local, rebuilt } = await LocalStore.open(factory, databaseName, log, options.stagedRowsMemoryBytes);
      if (rebuilt) log('The local store had another version than 2.7; it was deleted and created afresh');
      rebuiltStore = rebuilt;
      if (closed) local.close();
      return { local };
    } catch (error) {
      return { unavailable: `The local store could not be opened: ${describeError(error)}`, retry: true };
    }
  }

  function ready(): Promise<Opened> {
    if (closed) return Promise.resolve({ unavailable: 'The local store is closed.', retry: false });
    opening ??= openStore();
    return opening;
  }

  /** Changes of the store run one at a time (and across tabs when Web Locks exist); clear cancels the running one. */
  function exclusive<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const controller = new AbortController();
      running = controller;
      try {
        return locks === null ? await work(controller.signal) : await locks.request(LOCK_NAME, () => work(controller.signal));
      } finally {
        if (running === controller) running = null;
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  }

  /** After `local.ensureCurrent()`: the status totals of every type held, counted again from the index. */
  async function refreshTotals(local: LocalStore): Promise<void> {
    const nowSeconds = Math.floor((latestSyncNow ?? Date.now()) / 1000);
    const held = await local.db.sync_info.toCollection().primaryKeys();
    for (const type of held) {
      await local.db.sync_info.update(type, { total_transactions: local.countHeld(type, nowSeconds) });
    }
  }

  async function storageStatus(): Promise<StoreStatus['storage']> {
    const result: StoreStatus['storage'] = { usageBytes: null, quotaBytes: null, persisted: null };
    if (storage === null) return result;
    try {
      const estimate = await storage.estimate();
      result.usageBytes = estimate.usage ?? null;
      result.quotaBytes = estimate.quota ?? null;
    } catch {
      // Not every browser estimates (and not in every context).
    }
    try {
      if (typeof storage.persisted === 'function') result.persisted = await storage.persisted();
    } catch {
      // As above.
    }
    return result;
  }

  async function status(): Promise<StoreStatus> {
    const opened = await ready();
    const storageInfo = await storageStatus();
    if (opened.local === undefined) {
      return {
        available: false,
        reason: opened.unavailable,
        empty: true,
        types: SYNC_TYPES.map((type) => ({ type, lastSync: null, totalRecords: 0, latestUpdatedAt: null })),
        storage: storageInfo,
        rebuilt: rebuiltStore,
      };
    }
    const { db } = opened.local;
    const [infos, cursors] = await Promise.all([db.sync_info.toArray(), db.sync_cursor.toArray()]);
    return {
      available: true,
      reason: null,
      empty: infos.length === 0,
      types: SYNC_TYPES.map((type) => {
        const info = infos.find((row) => row.type === type);
        return {
          type,
          lastSync: info?.last_sync ?? null,
          totalRecords: info?.total_transactions ?? 0,
          latestUpdatedAt: cursors.find((row) => row.type === type)?.updated_at ?? null,
        };
      }),
      storage: storageInfo,
      rebuilt: rebuiltStore,
    };
  }

  return {
    async open() {
      if (opening !== null) {
        const previous = await opening;
        if (previous.local === undefined && previous.retry && !closed) opening = null;
      }
      return status();
    },

    status,

    async syncType(request: SyncTypeRequest, auth: SyncAuth, onProgress: (progress: SyncProgress) => void) {
      const failed = (message: string): SyncTypeResult => ({ outcome: 'failed', pages: 0, records: 0, message, sessionError: null });
      const queuedAt = epoch;
      const opened = await ready();
      if (opened.local === undefined) return failed(opened.unavailable);
      const { local } = opened;
      return exclusive(async (signal) => {
        if (epoch !== queuedAt || closed) return failed('The sync was cancelled');
        latestSyncNow = request.now;
        try {
          await local.ensureCurrent();
          const result = await runSyncType(local, request, auth, onProgress, syncOptions, signal);
          if (!closed) await local.ensureCurrent();
          return result;
        } catch (error) {
          return failed(describeError(error));
        }
      });
    },

    async purge(now: number) {
      const queuedAt = epoch;
      const opened = await ready();
      if (opened.local === undefined) return { purged: 0 };
      const { local } = opened;
      return exclusive(async (signal) => {
        if (epoch !== queuedAt || closed) return { purged: 0 };
        await local.ensureCurrent();
        let purged: number;
        try {
          purged = await local.purge(Math.floor(now / 1000) - PURGE_AFTER_SECONDS, signal);
        } catch (error) {
          if (signal.aborted) return { purged: 0 };
          throw error;
        }
        await local.ensureCurrent();
        // The status totals (sync_info.total_transactions) count what the purge just deleted: count again.
        if (purged > 0) await refreshTotals(local);
        try {
          await local.saveSnapshot();
        } catch (error) {
          log('Saving the plate index snapshot failed; the next start rebuilds it', error);
        }
        return { purged };
      });
    },

    async search(request: PlateSearchRequest) {
      searches++;
      const opened = await ready();
      if (opened.local === undefined) return emptySearchResult();
      return searchStore(opened.local, request);
    },

    async searchAhead(request: SearchAheadRequest) {
      const mine = ++searches;
      const deadline = performance.now() + request.budgetMs;
      const opened = await ready();
      if (opened.local === undefined) return null;
      const answers: SearchAheadAnswers = {};
      // No plate contains the text, even with characters swapped: none contains it with one more (a miss stays one).
      const current = opened.local.index.match({
        text: request.text,
        locationId: request.locationId,
        nowSeconds: Math.floor(request.now / 1000),
        similar: request.similar ?? false,
      });
      const symbols = [...new Set(request.symbols)].filter((symbol) => PLATE_SYMBOLS.includes(symbol));
      if (SEARCH_CATEGORIES.every((category) => current[category].total === 0)) {
        for (const symbol of symbols) answers[symbol] = emptySearchResult();
        return answers;
      }
      for (const symbol of symbols) {
        // Between two characters, a search the officer just asked for runs first; it makes this read-ahead stale.
        await yieldToMessages();
        if (searches !== mine || closed) return null;
        if (performance.now() >= deadline) break;
        const text = request.text + symbol;
        const search = { text, locationId: request.locationId, now: request.now, similar: request.similar };
        answers[symbol] = await searchFirstPaint(opened.local, search, request.firstPaintRows);
      }
      return searches === mine ? answers : null;
    },

    async clear() {
      epoch++;
      running?.abort();
      const opened = await ready();
      if (opened.local === undefined) return;
      const { local } = opened;
      await exclusive(() => local.clear());
    },

    async lastPurge() {
      const opened = await ready();
      return { ...(opened.local?.lastPurge ?? noPurgeStats()) };
    },

    async flush() {
      const opened = await ready();
      if (opened.local !== undefined) await opened.local.drain();
    },

    async close() {
      closed = true;
      epoch++;
      running?.abort();
      const opened = await opening;
      opened?.local?.close();
    },
  };
}
