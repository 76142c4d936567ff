import type { SyncType } from '../contract/enforcement';
import { PackedRows } from './packed-rows';
import { PlateIndex, type IndexSource } from './plate-index';
import {
  openEnforcementStore,
  PURGED_SOURCES,
  bumpStoredGeneration,
  readGeneration,
  SOURCE_OF_TYPE,
  type EnforcementStore,
  type IndexedDbFactory,
  type StoredRecord,
  type SyncCursorRow,
} from './store';
import { requestResult } from './store-idb';
import { purgeChunk } from './store-purge';
import {
  loadMonthlyParkerIds,
  loadStoreState,
  rebuildStoreState,
  savePlateIndexSnapshot,
  type StoreState,
} from './store-plate-index';
import { MonthlyParkerIds, pageEntries, type PreparedPage } from './store-records';
import {
  collectStagedPages,
  expandStagedSlice,
  readStagedPositions,
  readStagedRows,
  readWatermark,
  StagedPages,
  StagingStateChanged,
  stagePage,
  type ExpandResult,
  type StagedPage,
} from './store-staging';
import { cursorFromRow, FRESH_CURSOR, toCursorRow, type SyncCursor } from './sync-cursor';
import { yieldToMessages } from './yield';

export type Log = (message: string, error?: unknown) => void;

/** Expanded pages are deleted from staging in batches of this many (and whenever staging runs dry). */
const COLLECT_EVERY = 16;

/**
 * Rows a purge deletes per transaction, at most: deleting through the expiry index costs ~0.1–0.2 ms a row on a
 * quiet 2-vCPU machine (docs/performance), so ≤ 20 ms a transaction, under bench:sync's purgeLongestTransactionMs
 * goal of 100 ms with room for a loaded machine or a slow phone (250 rows took up to 351 ms at load 11).
 */
export const PURGE_CHUNK = 100;
/**
 * What a purge transaction should take (store-purge.ts): the next chunk's rows are scaled from the last chunk's time
 * towards it (10 to PURGE_CHUNK rows). A search waits for the purge transaction in progress, so this bounds that
 * wait (bench:sync's searchDuringPurgeP95Ms ≤ 16 ms, a search alone taking 3–6 ms; at 8 ms the p95 was 14.6–16.7);
 * a slow device gets smaller chunks rather than longer waits.
 */
export const PURGE_CHUNK_TARGET_MS = 5;
const PURGE_CHUNK_MIN = 10;

/** A purge transaction this long or longer counts as slow in PurgeStats (half bench:sync's goal for the longest). */
export const SLOW_PURGE_TRANSACTION_MS = 50;

/**
 * The last purge's read-write transactions (bench:sync): how many, how many were slow, and the longest: its time
 * (asked → committed), the part of it before its first read was answered, the rows it asked for and its number.
 * Together they tell a stall of the store (a wait before the first read, a few slow transactions spread through the
 * purge) from a chunk too large (many rows, time spent deleting).
 */
export interface PurgeStats {
  transactions: number;
  /** Transactions that took SLOW_PURGE_TRANSACTION_MS or more. */
  slowTransactions: number;
  longestTransactionMs: number;
  longestTransactionFirstReadMs: number;
  longestTransactionRows: number;
  longestTransactionNumber: number;
  /** Every transaction's time (asked → committed), in order: bench:sync's p99.9 against plain 10-row deletes. */
  transactionMs: number[];
}

export function noPurgeStats(): PurgeStats {
  return {
    transactions: 0,
    slowTransactions: 0,
    longestTransactionMs: 0,
    longestTransactionFirstReadMs: 0,
    longestTransactionRows: 0,
    longestTransactionNumber: 0,
    transactionMs: [],
  };
}

/**
 * What an expansion transaction should take (LocalStore.#expandPage): the next slice's rows are scaled from the last
 * slice's time towards it, between EXPANSION_SLICE_MIN and EXPANSION_SLICE_MAX rows. A search waits for the slice in
 * progress, as for a purge chunk (PURGE_CHUNK_TARGET_MS).
 */
export const EXPANSION_SLICE_TARGET_MS = 5;
const EXPANSION_SLICE_MIN = 20;
const EXPANSION_SLICE_MAX = 2000;

/** After a sync call, expansion waits this long for the next call of the same sync round (deferExpansion). */
export const EXPANSION_RESUME_DELAY_MS = 250;

export interface RowRequest {
  source: IndexSource;
  key: number;
}

/**
 * The open store and what the worker keeps in memory about it: the plate index, the pages parsed but not yet
 * staged (pending), the staged pages not yet expanded, and the background expansion. Records are found, newest
 * first, in pending pages, then staged pages, then their tables.
 *
 * Methods that change the store's content (stage, purge, clear, rescope, reload) are called by the API one at a
 * time; expansion runs beside them and only moves records from staged pages into tables.
 */
export class LocalStore {
  readonly db: EnforcementStore;
  readonly #keyRange: typeof IDBKeyRange;
  readonly #log: Log;

  #index = new PlateIndex();
  /** The store generation the index reflects (pending pages aside). */
  #generation = 0;
  #snapshotGeneration = -1;
  /** Set when the index may not match the store (another connection wrote, or a parker was remapped). */
  #indexStale = false;

  readonly #pendingPages: PreparedPage[] = [];
  readonly #pendingRows = new Map<IndexSource, Map<number, StoredRecord>>();

  readonly #staged: StagedPages;
  #watermark = 0;
  #nextSeq = 1;
  #monthlyParkerIds: MonthlyParkerIds | null = null;

  #expanding: Promise<void> | null = null;
  #expansionError: unknown = null;
  #expansionPaused = 0;
  /** While a sync runs, expansion waits: IndexedDB serves one database's transactions on one backend sequence, so
   * expanding beside a sync slows the sync's staging about as much as it gains. */
  #expansionDeferred = 0;
  #deferralWaiters: (() => void)[] = [];
  #closed = false;
  /** Searches reading rows now (readRows), and what waits for them to finish (the purge, between chunks). */
  #reads = 0;
  /** Rows the next expansion slice puts, sized from the last one's time (#expandPage). */
  #expansionSliceRows = 100;
  #readWaiters: (() => void)[] = [];

  private constructor(db: EnforcementStore, keyRange: typeof IDBKeyRange, log: Log, stagedRowsMemoryBytes?: number) {
    this.#staged = new StagedPages(stagedRowsMemoryBytes);
    this.db = db;
    this.#keyRange = keyRange;
    this.#log = log;
  }

  static async open(
    factory: IndexedDbFactory,
    name: string,
    log: Log,
    stagedRowsMemoryBytes?: number,
  ): Promise<{ local: LocalStore; rebuilt: boolean }> {
    const { store, rebuilt } = await openEnforcementStore(factory, name);
    const local = new LocalStore(store, factory.IDBKeyRange, log, stagedRowsMemoryBytes);
    try {
      local.#adopt(await loadStoreState(local.#idb(), factory.IDBKeyRange, log));
      await collectStagedPages(local.#idb(), local.#watermark, factory.IDBKeyRange);
    } catch (error) {
      store.close();
      throw error;
    }
    local.kickExpansion();
    return { local, rebuilt };
  }

  get index(): PlateIndex {
    return this.#index;
  }

  #idb(): IDBDatabase {
    if (this.#closed) throw new DOMException('The local store is closed', 'InvalidStateError');
    return this.db.backendDB();
  }

  #adopt(state: StoreState): void {
    this.#index = state.index;
    this.#generation = state.generation;
    this.#snapshotGeneration = state.origin === 'snapshot' ? state.generation : -1;
    this.#watermark = state.watermark;
    this.#staged.clear();
    for (const row of state.staged) this.#staged.add(row);
    this.#nextSeq = Math.max(state.watermark, this.#staged.lastSeq) + 1;
    this.#monthlyParkerIds = null;
    this.#indexStale = false;
  }

  /**
   * Before changing the store: when another connection changed it since (or the index is known to be off), load
   * the index again (snapshot if current, else rebuilt) and what is staged.
   */
  async ensureCurrent(): Promise<void> {
    if (!this.#indexStale) {
      const tx = this.#idb().transaction('meta', 'readonly');
      if ((await readGeneration(tx)) === this.#generation) return;
    }
    await this.#withExpansionPaused(async () => {
      this.#adopt(await loadStoreState(this.#idb(), this.#keyRange, this.#log));
    });
    this.kickExpansion();
  }

  /** Rebuilds the index from what is committed; pending pages are dropped. */
  async rebuildIndex(): Promise<void> {
    this.discardPending();
    await this.#withExpansionPaused(async () => {
      this.#adopt(await rebuildStoreState(this.#idb(), this.#keyRange));
    });
    this.kickExpansion();
  }

  async saveSnapshot(): Promise<void> {
    if (this.#indexStale || this.#pendingPages.length > 0 || this.#snapshotGeneration === this.#generation) return;
    const generation = this.#generation;
    if (await savePlateIndexSnapshot(this.#idb(), this.#index, generation, this.#keyRange)) this.#snapshotGeneration = generation;
  }

  // ---- pages of a running sync ----

  /**
   * A parsed page becomes searchable: into the index, and its rows into the pending buffer, together when the promise
   * resolves. The index's upsert runs in slices (PlateIndex.upsertInSlices) so that a search asked meanwhile answers
   * at once, from the index as it was before the page.
   */
  async addPending(page: PreparedPage): Promise<void> {
    await this.#index.upsertInSlices(pageEntries(page), yieldToMessages);
    this.#pendingPages.push(page);
    let rows = this.#pendingRows.get(page.source);
    if (rows === undefined) this.#pendingRows.set(page.source, (rows = new Map()));
    for (let i = 0; i < page.rows.length; i++) rows.set(page.keys[i]!, page.rows[i]!);
  }

  #removePending(page: PreparedPage): void {
    const at = this.#pendingPages.indexOf(page);
    if (at >= 0) this.#pendingPages.splice(at, 1);
    const rows = this.#pendingRows.get(page.source);
    if (rows === undefined) return;
    for (let i = 0; i < page.rows.length; i++) {
      // A later pending page may hold a newer version of the same record.
      if (rows.get(page.keys[i]!) === page.rows[i]) rows.delete(page.keys[i]!);
    }
  }

  /** After a failed staging: the index holds entries of pages never stored; the caller rebuilds it. */
  discardPending(): void {
    this.#pendingPages.length = 0;
    this.#pendingRows.clear();
    this.#monthlyParkerIds = null;
  }

  /** Pending pages dropped without a rebuild (the sync was cancelled): the index is reloaded before next use. */
  abandonPending(): void {
    this.discardPending();
    this.#indexStale = true;
  }

  /** Stages a pending page with its cursor advance (one transaction); then it is durable. */
  async stage(page: PreparedPage, cursor: SyncCursorRow): Promise<void> {
    const seq = this.#nextSeq++;
    const packed = PackedRows.pack(page.rows);
    const result = await stagePage(this.#idb(), page, packed, seq, cursor, this.#generation, this.#watermark, this.#keyRange);
    if (!result.expectedPrevious) this.#indexStale = true;
    this.#generation = result.generation;
    // Before the page leaves the pending ones, so that its rows are in memory throughout (packed-rows.ts).
    this.#staged.add(result.row, packed);
    this.#removePending(page);
    this.kickExpansion();
  }

  async monthlyParkerIds(): Promise<MonthlyParkerIds> {
    this.#monthlyParkerIds ??= await loadMonthlyParkerIds(this.#idb(), this.#staged.pagesOf('monthly_parkers'), this.#keyRange);
    return this.#monthlyParkerIds;
  }

  // ---- expansion ----

  /**
   * Defers expansion until the returned function is called (a sync is running), and then EXPANSION_RESUME_DELAY_MS
   * more: the sync machine asks the next type (or the same type again after the page cap) right after a call returns,
   * and an expansion begun in that gap lets its page finish, one transaction of 2000 puts that every search's read
   * waited for, 40–85 ms (bench:sync, 2026-11-24: the slowest searches during the sync). drain() does not wait.
   */
  deferExpansion(): () => void {
    this.#expansionDeferred++;
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.#expansionDeferred > 0) return;
      for (const wake of this.#deferralWaiters.splice(0)) wake();
      setTimeout(() => this.kickExpansion(), EXPANSION_RESUME_DELAY_MS);
    };
  }

  #expansionHeld(): boolean {
    return this.#closed || this.#expansionPaused > 0 || this.#expansionDeferred > 0;
  }

  kickExpansion(): void {
    if (this.#expansionHeld() || this.#expanding !== null || this.#staged.count === 0) return;
    this.#expansionError = null;
    this.#expanding = this.#expand().finally(() => {
      this.#expanding = null;
    });
  }

  async #expand(): Promise<void> {
    let sinceCollect = 0;
    try {
      for (;;) {
        const page = this.#staged.first();
        if (page === undefined) break;
        if (this.#expansionHeld()) return;
        const db = this.#idb();
        // Rows held in memory are unpacked a slice at a time: short-lived objects, not a page's 2000 kept for its
        // whole expansion (and promoted to the old generation, which the worker's collector then had to compact).
        const rows = page.packed ?? (await readStagedRows(db, page.seq, this.#keyRange));
        if (rows === undefined) {
          if (await this.#expandedElsewhere(page.seq)) continue;
          throw new StagingStateChanged(`Staged page ${page.seq} is gone`);
        }
        const expanded = await this.#expandPage(db, page, rows);
        if (expanded === 'stopped') return;
        if (expanded === 'elsewhere') continue;
        const { remapped } = expanded;
        this.#watermark = page.seq;
        // Its rows stay in memory for searches until this run ends, unless the table holds other parker ids.
        this.#staged.dropThrough(page.seq, !remapped);
        if (remapped) {
          // The index and its snapshot hold the page's ids, the table others: a new generation makes the next
          // ensureCurrent (any sync) or open rebuild the index from the table rather than load that snapshot.
          await bumpStoredGeneration(db);
          this.#indexStale = true;
          this.#monthlyParkerIds = null;
        }
        if (++sinceCollect >= COLLECT_EVERY) {
          sinceCollect = 0;
          await collectStagedPages(db, this.#watermark, this.#keyRange);
        }
      }
      await collectStagedPages(this.#idb(), this.#watermark, this.#keyRange);
    } catch (error) {
      if (this.#closed) return;
      if (error instanceof StagingStateChanged) this.#indexStale = true;
      this.#expansionError = error;
      this.#log('Expanding staged pages into their tables failed; they stay staged and searchable', error);
    } finally {
      // Searches read the tables again: the expanded pages' rows are memory an idle store does not keep.
      this.#staged.releaseExpanded();
    }
  }

  /**
   * One staged page into its table, in slices of rows sized towards EXPANSION_SLICE_TARGET_MS, searches first between
   * them: a search's read of the table waits for the slice in progress (a whole page in one transaction, 2000 puts,
   * took 100–250 ms on Chromium 150, and searches during the expansion waited p50 102 ms; bench:sync). A sync that
   * begins meanwhile lets the page finish; clear and close stop it ('stopped': the page stays staged and is begun
   * again later, its rows put again).
   */
  async #expandPage(
    db: IDBDatabase,
    page: StagedPage,
    rows: PackedRows | readonly StoredRecord[],
  ): Promise<ExpandResult | 'stopped' | 'elsewhere'> {
    let remapped = false;
    let resolveParkerIds = false;
    for (let from = 0; from < rows.length; ) {
      await this.#afterSearches();
      if (this.#closed || this.#expansionPaused > 0) return 'stopped';
      const to = Math.min(rows.length, from + this.#expansionSliceRows);
      const sliceRows =
        rows instanceof PackedRows ? Array.from({ length: to - from }, (_, i) => rows.row<StoredRecord>(from + i)) : rows.slice(from, to);
      const started = performance.now();
      try {
        const slice = await expandStagedSlice(db, page, sliceRows, to === rows.length, this.#watermark, resolveParkerIds);
        remapped ||= slice.remapped;
      } catch (error) {
        if (error instanceof StagingStateChanged && (await this.#expandedElsewhere(page.seq))) return 'elsewhere';
        const parkerConflict = page.source === 'monthly_parkers' && error instanceof DOMException && error.name === 'ConstraintError';
        if (!parkerConflict || resolveParkerIds) throw error;
        this.#log('Monthly parker ids disagree with the table; expanding with a lookup per parker', error);
        resolveParkerIds = true;
        continue; // the same slice again, with the lookups
      }
      const took = performance.now() - started;
      const scaled = Math.round(((to - from) * EXPANSION_SLICE_TARGET_MS) / Math.max(took, 1));
      this.#expansionSliceRows = Math.min(EXPANSION_SLICE_MAX, Math.max(EXPANSION_SLICE_MIN, scaled));
      from = to;
    }
    return { remapped };
  }

  /**
   * Another connection (a second tab's worker) expanded staged pages up to `seq` or beyond: not a failure, the tables
   * hold them, and our watermark follows. Which records the index holds does not change (a page the other connection
   * staged itself bumped the store generation, so ensureCurrent reloads before the next change).
   */
  async #expandedElsewhere(seq: number): Promise<boolean> {
    const stored = await readWatermark(this.#idb());
    if (stored < seq) return false;
    this.#watermark = stored;
    this.#staged.dropThrough(stored);
    return true;
  }

  /**
   * Resolves once every staged page is in its table (after any sync running now). Rejects when `signal` aborts
   * first (sign-out must not wait for expansion).
   */
  async drain(signal?: AbortSignal): Promise<void> {
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new DOMException('Waiting for expansion was cancelled', 'AbortError'));
      if (signal?.aborted) fail();
      else signal?.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    const wait = (promise: Promise<void>) => (signal === undefined ? promise : Promise.race([promise, aborted]));
    for (;;) {
      if (this.#expansionDeferred > 0 && !this.#closed) {
        await wait(new Promise<void>((resolve) => this.#deferralWaiters.push(resolve)));
        continue;
      }
      this.kickExpansion();
      const running = this.#expanding;
      if (running !== null) await wait(running);
      if (this.#expansionError !== null) throw this.#expansionError;
      if (this.#closed || this.#staged.count === 0) return;
      if (this.#expansionPaused > 0) throw new Error('Expansion is paused');
    }
  }

  async #withExpansionPaused<T>(work: () => Promise<T>): Promise<T> {
    this.#expansionPaused++;
    try {
      if (this.#expanding !== null) await this.#expanding;
      return await work();
    } finally {
      this.#expansionPaused--;
    }
  }

  // ---- reads ----

  /** The stored rows for `requests` (undefined where none), newest version first: pending, staged, expanded in memory, table. */
  async readRows(requests: readonly RowRequest[]): Promise<(StoredRecord | undefined)[]> {
    this.#reads++;
    try {
      return await this.#readRows(requests);
    } finally {
      if (--this.#reads === 0) for (const wake of this.#readWaiters.splice(0)) wake();
    }
  }

  /** Lets searches go first: queued messages run, then whatever rows they read are read before this resolves. */
  async #afterSearches(): Promise<void> {
    do {
      await yieldToMessages();
      if (this.#reads > 0) await new Promise<void>((resolve) => this.#readWaiters.push(resolve));
    } while (this.#reads > 0);
  }

  async #readRows(requests: readonly RowRequest[]): Promise<(StoredRecord | undefined)[]> {
    const results: (StoredRecord | undefined)[] = new Array(requests.length);
    const fromStaged = new Map<number, { at: number; position: number }[]>();
    const fromTable: number[] = [];
    requests.forEach(({ source, key }, at) => {
      const pending = this.#pendingRows.get(source)?.get(key);
      if (pending !== undefined) {
        results[at] = pending;
        return;
      }
      const staged = this.#staged.locate(source, key);
      if (staged === null) {
        const expanded = this.#staged.expandedRow(source, key);
        if (expanded !== undefined) results[at] = expanded;
        else fromTable.push(at);
        return;
      }
      if (staged.page.packed !== null) {
        results[at] = staged.page.packed.row<StoredRecord>(staged.position);
        return;
      }
      let wanted = fromStaged.get(staged.page.seq);
      if (wanted === undefined) fromStaged.set(staged.page.seq, (wanted = []));
      wanted.push({ at, position: staged.position });
    });
    if (fromStaged.size > 0) {
      const positions = new Map([...fromStaged].map(([seq, wanted]) => [seq, wanted.map((w) => w.position)]));
      const pages = await readStagedPositions(this.#idb(), positions);
      for (const [seq, wanted] of fromStaged) {
        const rows = pages.get(seq);
        wanted.forEach(({ at }, i) => {
          // Expanded and collected meanwhile: its table has it.
          if (rows === undefined) fromTable.push(at);
          else results[at] = rows[i];
        });
      }
    }
    if (fromTable.length > 0) {
      const sources = [...new Set(fromTable.map((at) => requests[at]!.source))];
      const tx = this.#idb().transaction(sources, 'readonly');
      const rows = await Promise.all(
        fromTable.map((at) => {
          const { source, key } = requests[at]!;
          return requestResult(tx.objectStore(source).get(key)) as Promise<StoredRecord | undefined>;
        }),
      );
      fromTable.forEach((at, i) => {
        results[at] = rows[i];
      });
    }
    return results;
  }

  /**
   * Records of `type` the store holds (sync_info.total_transactions), from the plate index, which holds every record
   * of the tables and of staged and pending pages once: a record updated by a page not yet expanded is one record, and
   * no IndexedDB count walks 100,000 index entries (~1 s on Chromium 150; the stale sync took 2 s for it). The caller
   * makes the index current first (ensureCurrent), once for all the types it counts.
   */
  countHeld(type: SyncType, nowSeconds: number): number {
    const source = SOURCE_OF_TYPE[type];
    if (type === 'valid') return this.#index.count(source, nowSeconds);
    if (type === 'expired') return this.#index.count(source) - this.#index.count(source, nowSeconds);
    return this.#index.count(source);
  }

  // ---- other changes ----

  /** Bumps the generation inside a Dexie transaction that includes `meta`; returns the generation replaced. */
  async #bumpGeneration(): Promise<number> {
    const previous = (await this.db.meta.get('generation'))?.value ?? 0;
    await this.db.meta.put({ key: 'generation', value: previous + 1 });
    return previous;
  }

  #advancedFrom(previous: number): void {
    if (previous !== this.#generation) this.#indexStale = true;
    this.#generation = previous + 1;
  }

  /**
   * The officer's locations changed since the type's cursor was made: records of locations no longer assigned are
   * deleted, and when a location was added the type starts again from the beginning (its older records would
   * otherwise never come). Returns the cursor to continue from.
   */
  async rescope(type: SyncType, cursorRow: SyncCursorRow, locationIds: number[], signal?: AbortSignal): Promise<SyncCursor> {
    const source = SOURCE_OF_TYPE[type];
    const held = new Set(cursorRow.locationIds);
    const wanted = new Set(locationIds);
    const added = locationIds.some((id) => !held.has(id));
    const removed = new Set(cursorRow.locationIds.filter((id) => !wanted.has(id)));
    const next: SyncCursor = added ? FRESH_CURSOR : cursorFromRow(cursorRow);
    const table = this.db.table<StoredRecord, number>(source);
    let removedKeys: number[] = [];
    if (removed.size > 0) {
      await this.drain(signal);
      removedKeys = await table.filter((row) => removed.has(row.location_id)).primaryKeys();
    }
    let previous = 0;
    await this.db.transaction('rw', [source, 'sync_cursor', 'meta'], async () => {
      if (removedKeys.length > 0) await table.bulkDelete(removedKeys);
      await this.db.sync_cursor.put(toCursorRow(type, next, locationIds));
      previous = await this.#bumpGeneration();
    });
    this.#advancedFrom(previous);
    if (removedKeys.length > 0) {
      this.#index.remove(source, removedKeys);
      if (source === 'monthly_parkers') this.#monthlyParkerIds = null;
    }
    return next;
  }

  /** The last purge's read-write transactions (bench:sync). */
  lastPurge: PurgeStats = noPurgeStats();

  /**
   * Deletes transactions and bookings whose expiry is before `cutoffSeconds`, in the index and the tables.
   * The index first (one rebuild of each touched segment): searches stop finding purged records at once and never
   * ask the tables for them. The tables then lose them in short transactions (at most PURGE_CHUNK rows, sized towards
   * PURGE_CHUNK_TARGET_MS, store-purge.ts), so no transaction holds the store for long (one transaction for 250,000
   * records took 14–23 s, and every row fetch waited for it); between chunks searches go first (queued messages run,
   * their reads finish). An aborted purge leaves the index ahead of the tables: it is marked stale and rebuilt from
   * them.
   */
  async purge(cutoffSeconds: number, signal?: AbortSignal): Promise<number> {
    // Staged records would reach their tables after the purge and outlive it.
    await this.drain(signal);
    const removed = this.#index.removeExpiredBefore(cutoffSeconds);
    let purged = 0;
    this.lastPurge = noPurgeStats();
    // The first chunk is small: how fast this device deletes is not known yet, and a chunk grows at most to twice the
    // last (one fast chunk scaled the next straight to 100 rows). On bench:sync's machine of 2026-11-28 chunks settled
    // at ~13 rows for 5 ms: 100 rows would hold the store ~40 ms there, several times that on a slower phone.
    let rows = PURGE_CHUNK_MIN;
    try {
      for (const source of PURGED_SOURCES) {
        let fromExpiry: number | null = null;
        for (;;) {
          // Between chunks, searches first: a read asked now would otherwise queue behind the next chunk.
          await this.#afterSearches();
          signal?.throwIfAborted();
          const started = performance.now();
          const chunk = await purgeChunk(this.#idb(), source, cutoffSeconds, this.#keyRange, rows, fromExpiry);
          const took = performance.now() - started;
          this.lastPurge.transactions++;
          this.lastPurge.transactionMs.push(took);
          if (took >= SLOW_PURGE_TRANSACTION_MS) this.lastPurge.slowTransactions++;
          if (took > this.lastPurge.longestTransactionMs) {
            this.lastPurge.longestTransactionMs = took;
            this.lastPurge.longestTransactionFirstReadMs = chunk.firstReadMs;
            this.lastPurge.longestTransactionRows = rows;
            this.lastPurge.longestTransactionNumber = this.lastPurge.transactions;
          }
          if (chunk.deleted === 0) break;
          this.#advancedFrom(chunk.previousGeneration);
          purged += chunk.deleted;
          fromExpiry = chunk.lastExpiry;
          if (chunk.deleted < rows) break;
          const scaled = Math.round((rows * PURGE_CHUNK_TARGET_MS) / Math.max(took, 1));
          rows = Math.min(PURGE_CHUNK, 2 * rows, Math.max(PURGE_CHUNK_MIN, scaled));
        }
      }
    } catch (error) {
      if (removed > 0) this.#indexStale = true;
      throw error;
    }
    if (removed !== purged) {
      this.#log(`Purge removed ${purged} records but ${removed} index entries; the index will be rebuilt`);
      this.#indexStale = true;
    }
    return purged;
  }

  /** Sign-out: every table, the index, staging and the snapshot are emptied. */
  async clear(): Promise<void> {
    await this.#withExpansionPaused(async () => {
      let previous = 0;
      await this.db.transaction('rw', this.db.tables, async () => {
        for (const table of this.db.tables) if (table.name !== 'meta') await table.clear();
        previous = await this.#bumpGeneration();
      });
      this.discardPending();
      this.#adopt({ index: new PlateIndex(), generation: previous + 1, watermark: 0, staged: [], origin: 'rebuilt' });
      this.#expansionError = null;
    });
  }

  /** Stops background work; further calls fail. */
  close(): void {
    this.#closed = true;
    this.db.close();
  }
}
