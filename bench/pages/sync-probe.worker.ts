import * as Comlink from 'comlink';
import { deleteDatabase, done, openExisting, openScratch, request, timedPut } from './sync-probe-idb';
import { fetchPage, pageThrough, type PageSource } from './sync-probe-pages';

/**
 * The sync bench's own worker, beside the enforcement worker, with nothing of the worker under test (src/ is not
 * imported): it looks at the enforcement store from outside (its own read-only connection), and runs the plain
 * baselines the bench's ratios divide by (docs/benchmarks.md): the same pages fetched and parsed, the per-row `put`
 * ceiling, empty-page calls with empty transactions, 10-row delete transactions.
 */

/** The spec tables and their primary keys (src/worker/store.ts STORE_SCHEMA); the parkers' id is the store's own. */
const TABLES = [
  { name: 'transactions', keyPath: 'transaction_id' },
  { name: 'spothero', keyPath: 'id' },
  { name: 'parkwhiz', keyPath: 'id' },
  { name: 'monthly_parkers', keyPath: 'id', autoIncrement: true },
] as const;
type TableName = (typeof TABLES)[number]['name'];

/** The table each sync type is stored in. */
const TABLE_OF: Record<string, TableName> = {
  valid: 'transactions',
  expired: 'transactions',
  spothero: 'spothero',
  parkwhiz: 'parkwhiz',
  monthly_parkers: 'monthly_parkers',
};

const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

let staleDb: IDBDatabase | null = null;

export interface CommittedRecords {
  /** Rows in each spec table. */
  tables: Record<TableName, number>;
  /** Records of staged pages beyond the expansion watermark not yet in their tables (durable, to be expanded). */
  stagedBeyondWatermark: number;
  stagedPagesBeyondWatermark: number;
  watermark: number;
  total: number;
}

export interface CeilingOptions {
  /** Where the rows come from (the bench serves the API's pages from memory: fetching is not timed). */
  source: PageSource;
  types: readonly string[];
  scratchDb: string;
  /** Rows of each type at most. */
  perTypeLimit: number;
}

export interface CeilingResult {
  records: number;
  transactions: number;
  /** Sum over the write transactions, from the first put to `complete`. */
  putMs: number;
  recordsPerSec: number;
}

/** Sums the bytes of the binary parts of a stored value (the index snapshot's typed arrays), strings at 2 bytes a character. */
function bytesOf(value: unknown): number {
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value === 'string') return value.length * 2;
  if (typeof value === 'number') return 8;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + bytesOf(item), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + bytesOf(item), 0);
  return 0;
}

const probe = {
  /**
   * What a crash would keep: rows in the spec tables plus the records of staged pages beyond the watermark, read in
   * ONE read-only transaction so expansion running meanwhile cannot make a record count twice or not at all.
   */
  async committedRecords(name: string): Promise<CommittedRecords> {
    const db = await openExisting(name);
    try {
      const stores = [...TABLES.map((table) => table.name), 'staged_pages', 'expansion'];
      const tx = db.transaction(stores, 'readonly');
      const finished = done(tx);
      const counts = await Promise.all(TABLES.map((table) => request(tx.objectStore(table.name).count())));
      const watermarkRow = (await request(tx.objectStore('expansion').get('watermark'))) as { seq: number } | undefined;
      const watermark = watermarkRow?.seq ?? 0;
      const staged = (await request(
        tx.objectStore('staged_pages').getAll(IDBKeyRange.lowerBound(watermark, true)),
      )) as { seq: number; source: TableName; keys: ArrayLike<number> }[];
      // The page after the watermark may be partly expanded (expansion puts a page in slices, the watermark with the
      // last): its rows already in their table are counted there, not twice. In a fresh sync no other staged page
      // holds a record its table has.
      const partly = staged[0];
      const alreadyInTable = partly
        ? (await Promise.all(Array.from(partly.keys, (key) => request(tx.objectStore(partly.source).getKey(key))))).filter(
            (found) => found !== undefined,
          ).length
        : 0;
      await finished;
      const tables = Object.fromEntries(TABLES.map((table, i) => [table.name, counts[i]!])) as Record<TableName, number>;
      const stagedBeyondWatermark = staged.reduce((sum, page) => sum + page.keys.length, 0) - alreadyInTable;
      const total = counts.reduce((sum, count) => sum + count, 0) + stagedBeyondWatermark;
      return { tables, stagedBeyondWatermark, stagedPagesBeyondWatermark: staged.length, watermark, total };
    } finally {
      db.close();
    }
  },

  /** The bytes of the plate index's snapshot in the enforcement store (what open() loads). */
  async snapshotBytes(name: string): Promise<number> {
    const db = await openExisting(name);
    try {
      const tx = db.transaction('plate_index', 'readonly');
      return bytesOf(await request(tx.objectStore('plate_index').getAll()));
    } finally {
      db.close();
    }
  },

  /**
   * The fresh sync's baseline: every page of every type fetched from the same API and parsed, one after another as
   * the sync asks them, and nothing else (no validation, no index, no IndexedDB). Wall time in this worker.
   */
  async bareSync(source: PageSource, types: readonly string[]): Promise<{ ms: number; requests: number; records: number }> {
    const started = performance.now();
    let requests = 0;
    let records = 0;
    for (const type of types) {
      const paged = await pageThrough(source, type, () => undefined);
      requests += paged.requests;
      records += paged.records;
    }
    return { ms: performance.now() - started, requests, records };
  },

  /**
   * IndexedDB's per-row ceiling: the served records, a page at a time (fetched and parsed, not timed), written with
   * raw `IDBObjectStore.put`, one read-write transaction (relaxed durability, as the worker's) per page of 2000, into
   * a scratch database whose stores have the spec tables' primary keys. The database is left in place (deleting it
   * keeps the browser's IndexedDB backend busy for seconds after); the profile goes with the browser.
   */
  async ceiling(options: CeilingOptions): Promise<CeilingResult> {
    const scratch = await openScratch(options.scratchDb, TABLES);
    let records = 0;
    let transactions = 0;
    let putMs = 0;
    try {
      for (const type of options.types) {
        const paged = await pageThrough(
          options.source,
          type,
          async (rows) => {
            putMs += await timedPut(scratch, TABLE_OF[type]!, rows, RELAXED);
            transactions++;
          },
          options.perTypeLimit,
        );
        records += paged.records;
      }
    } finally {
      scratch.close();
    }
    return { records, transactions, putMs, recordsPerSec: records / (putMs / 1000) };
  },

  /** Opens (new, empty) the scratch database of staleBaseline's transactions, so that opening it is not timed. */
  async prepareStaleBaseline(scratchDb: string): Promise<void> {
    staleDb?.close();
    staleDb = await openScratch(scratchDb, [{ name: 'sync_info', keyPath: 'type' }]);
  },

  /**
   * The stale sync's baseline: for each type an empty page from the same API (asked after everything it holds) and an
   * empty read-write transaction, five of each, one after another.
   */
  async staleBaseline(source: PageSource, types: readonly string[], afterAllMs: number): Promise<void> {
    if (staleDb === null) throw new Error('prepareStaleBaseline first');
    for (const type of types) {
      const page = await fetchPage(source, type, afterAllMs, 0);
      if (page.length !== 0) throw new Error(`${type}: the empty page held ${page.length} records`);
      await done(staleDb.transaction('sync_info', 'readwrite'));
    }
  },

  /**
   * The purge's baseline: a scratch store of `transactions × rows` rows of about `rowBytes` (filled in 2000-row
   * transactions, not timed), then `transactions` read-write transactions deleting `rows` rows each (relaxed, as the
   * purge's), each timed from its creation to `complete`.
   */
  async purgeBaseline(options: { scratchDb: string; transactions: number; rows: number; rowBytes: number }): Promise<number[]> {
    const db = await openScratch(options.scratchDb, [{ name: 'rows', keyPath: 'id' }]);
    const filler = 'x'.repeat(Math.max(0, options.rowBytes - 60));
    const total = options.transactions * options.rows;
    try {
      for (let from = 0; from < total; from += 2000) {
        const rows = Array.from({ length: Math.min(2000, total - from) }, (_, i) => ({ id: from + i, expiry: from + i, plate: `P${from + i}`, filler }));
        await timedPut(db, 'rows', rows, RELAXED);
      }
      const transactionMs: number[] = [];
      for (let t = 0; t < options.transactions; t++) {
        const started = performance.now();
        const tx = db.transaction('rows', 'readwrite', RELAXED);
        const finished = done(tx);
        const store = tx.objectStore('rows');
        for (let r = 0; r < options.rows; r++) store.delete(t * options.rows + r);
        await finished;
        transactionMs.push(performance.now() - started);
      }
      return transactionMs;
    } finally {
      db.close();
    }
  },

  deleteDatabase,
};

export type ProbeApi = typeof probe;
Comlink.expose(probe);
