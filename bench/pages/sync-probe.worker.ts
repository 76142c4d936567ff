import * as Comlink from 'comlink';

/**
 * The sync bench's own worker, beside the enforcement worker: it looks at the enforcement store from outside (its own
 * IndexedDB connection, read-only) and measures IndexedDB's per-row ceiling in a scratch database. Nothing here is
 * the worker under test; src/ is not imported.
 */

/** The spec tables and their primary keys (src/worker/store.ts STORE_SCHEMA). */
const TABLES = [
  { name: 'transactions', keyPath: 'transaction_id', index: { name: 'expiry_date_time_unix', keyPath: 'expiry_date_time_unix', unique: false } },
  { name: 'spothero', keyPath: 'id', index: { name: 'expiry_unix', keyPath: 'expiry_unix', unique: false } },
  { name: 'parkwhiz', keyPath: 'id', index: { name: 'expiry_unix', keyPath: 'expiry_unix', unique: false } },
  {
    name: 'monthly_parkers',
    keyPath: 'id',
    index: { name: '[location_id+parkerid+license_plate]', keyPath: ['location_id', 'parkerid', 'license_plate'], unique: true },
  },
] as const;
type TableName = (typeof TABLES)[number]['name'];

const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('transaction aborted', 'AbortError'));
  });
}

/** Opens an existing database at its current version; never creates or upgrades one. */
function openExisting(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onupgradeneeded = () => {
      open.transaction?.abort();
      reject(new Error(`database ${name} does not exist`));
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error(`deleting ${name} is blocked by an open connection`));
  });
}

export interface CommittedRecords {
  /** Rows in each spec table. */
  tables: Record<TableName, number>;
  /** Records of staged pages beyond the expansion watermark not yet in their tables (durable, to be expanded). */
  stagedBeyondWatermark: number;
  stagedPagesBeyondWatermark: number;
  watermark: number;
  total: number;
  ms: number;
}

export interface CeilingOptions {
  sourceDb: string;
  scratchDb: string;
  batch: number;
  /** Give the scratch stores the spec tables' secondary indexes (expiry; the parkers' unique index). */
  withIndexes: boolean;
  /** Rows to take from each table at most (Infinity: all). */
  perTableLimit: number;
}

export interface CeilingResult {
  records: number;
  transactions: number;
  /** Sum over the write transactions, from the first put to `complete`. */
  putMs: number;
  /** Reading the rows from the enforcement store (not part of the ceiling). */
  readMs: number;
  wallMs: number;
  recordsPerSec: number;
  perTable: Record<string, { records: number; putMs: number; recordsPerSec: number }>;
  bytesApprox: number;
}

const probe = {
  crossOriginIsolated: () => self.crossOriginIsolated,

  /**
   * What a crash would keep: rows in the spec tables plus the records of staged pages beyond the watermark, read in
   * ONE read-only transaction so expansion running meanwhile cannot make a record count twice or not at all.
   */
  async committedRecords(name: string): Promise<CommittedRecords> {
    const started = performance.now();
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
      return { tables, stagedBeyondWatermark, stagedPagesBeyondWatermark: staged.length, watermark, total, ms: performance.now() - started };
    } finally {
      db.close();
    }
  },

  /**
   * IndexedDB's per-row ceiling: the rows the spec tables hold, read back in batches (not timed) and written with raw
   * `IDBObjectStore.put`, one readwrite transaction (relaxed durability, as expansion uses) per `batch` rows, into a
   * scratch database whose stores have the same primary keys. Timed from the first put to `complete`.
   */
  async ceiling(options: CeilingOptions): Promise<CeilingResult> {
    const wallStarted = performance.now();
    await deleteDatabase(options.scratchDb);
    const scratch = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(options.scratchDb, 1);
      open.onupgradeneeded = () => {
        for (const table of TABLES) {
          const store = open.result.createObjectStore(table.name, { keyPath: table.keyPath });
          if (options.withIndexes) store.createIndex(table.index.name, table.index.keyPath as string | string[], { unique: table.index.unique });
        }
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const source = await openExisting(options.sourceDb);
    const perTable: CeilingResult['perTable'] = {};
    let records = 0;
    let transactions = 0;
    let putMs = 0;
    let readMs = 0;
    let bytesApprox = 0;
    try {
      for (const table of TABLES) {
        let tableRecords = 0;
        let tablePutMs = 0;
        let after: IDBValidKey | null = null;
        while (tableRecords < options.perTableLimit) {
          const readStarted = performance.now();
          const want = Math.min(options.batch, options.perTableLimit - tableRecords);
          const readTx = source.transaction(table.name, 'readonly');
          const range = after === null ? undefined : IDBKeyRange.lowerBound(after, true);
          const rows = (await request(readTx.objectStore(table.name).getAll(range, want))) as Record<string, unknown>[];
          readMs += performance.now() - readStarted;
          if (rows.length === 0) break;
          after = rows[rows.length - 1]![table.keyPath] as IDBValidKey;
          if (tableRecords === 0) bytesApprox += JSON.stringify(rows[0]).length;

          const putStarted = performance.now();
          const tx = scratch.transaction(table.name, 'readwrite', RELAXED);
          const finished = done(tx);
          const store = tx.objectStore(table.name);
          for (const row of rows) store.put(row);
          await finished;
          const ms = performance.now() - putStarted;
          tablePutMs += ms;
          tableRecords += rows.length;
          transactions++;
          if (rows.length < want) break;
        }
        perTable[table.name] = { records: tableRecords, putMs: tablePutMs, recordsPerSec: tableRecords / (tablePutMs / 1000) };
        records += tableRecords;
        putMs += tablePutMs;
      }
    } finally {
      source.close();
      scratch.close();
    }
    await deleteDatabase(options.scratchDb);
    return {
      records,
      transactions,
      putMs,
      readMs,
      wallMs: performance.now() - wallStarted,
      recordsPerSec: records / (putMs / 1000),
      perTable,
      bytesApprox: bytesApprox / TABLES.length,
    };
  },

  deleteDatabase,
};

export type ProbeApi = typeof probe;
Comlink.expose(probe);
