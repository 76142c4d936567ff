import * as Comlink from 'comlink';
import { Dexie, type Table } from 'dexie';
import {
  SYNC_TYPES,
  type BookingRecord,
  type MonthlyParkerRecord,
  type SyncType,
  type TransactionRecord,
} from '../../src/contract/enforcement';
import { SEARCH_CATEGORIES } from '../../src/worker/enforcement-worker-api';
import { PlateIndex, type IndexSource, type PlateIndexEntry, type PlateIndexSnapshot, type PlateMatches } from '../../src/worker/plate-index';
import { generateEnforcementRecords, splitRecords, type GeneratedRecord } from '../../server/db/seed/enforcement-data';
import { plainMatch, plainPlates, sameMatches, type PlainPlates } from './plain-scan';
import { buildQueryMix, seededRandom, type BenchQuery, type SampledPlate } from './search-queries';

/**
 * The bench's worker: generates the records (server/db/seed/enforcement-data.ts), stores them in IndexedDB tables
 * named as the store names them (spec §3), feeds the plate index page by page as a sync would, and answers searches
 * two ways, each followed by the same row reads: through the index, and by the plain scan (bench/pages/plain-scan.ts,
 * the baseline). It also starts cold from the stored snapshot, or does a plain `get` of a value that size (the cold
 * start's baseline). Timing is taken here, in the worker.
 */
type Stored<T> = T & { sync_time: number };
type StoredMonthlyParker = Stored<MonthlyParkerRecord> & { id?: number };

class BenchStore extends Dexie {
  transactions!: Table<Stored<TransactionRecord>, number>;
  spothero!: Table<Stored<BookingRecord>, number>;
  parkwhiz!: Table<Stored<BookingRecord>, number>;
  monthly_parkers!: Table<StoredMonthlyParker, number>;
  plate_index!: Table<{ name: string; snapshot: PlateIndexSnapshot }, string>;

  constructor() {
    super('lpa-bench-search');
    // Primary keys only, as the searches read rows by key; fewer indexes load faster.
    this.version(1).stores({
      transactions: 'transaction_id',
      spothero: 'id',
      parkwhiz: 'id',
      monthly_parkers: '++id',
      plate_index: 'name',
    });
  }
}

const PAGE = 2000;
const db = new BenchStore();
let index = new PlateIndex();
/** The same entries as the index holds, for the plain scan; only in the worker that loaded them. */
let plain: PlainPlates | null = null;

export interface LoadOptions {
  total: number;
  seed: number;
  nowMs: number;
  locationIds: number[];
  querySeed: number;
}

export interface LoadResult {
  records: number;
  recordsByType: Record<SyncType, number>;
  generateMs: number;
  idbWriteMs: number;
  indexUpsertMs: number;
  /** One upsert per 2000-record page, in sync order. */
  upsertPageMs: number[];
  /** The first query after loading, which builds the presence bitmaps. */
  firstQueryMs: number;
  indexBytes: number;
  indexSize: number;
  queries: BenchQuery[];
  crossOriginIsolated: boolean;
}

const sourceOf = (type: SyncType): IndexSource => (type === 'valid' || type === 'expired' ? 'transactions' : type);

function bookingExpiry(record: BookingRecord): number {
  return Math.floor(Date.parse(record.expiry_date_time) / 1000);
}

/** Sync order: the server serves each type by (updated_at, key). */
function syncOrder(records: GeneratedRecord[]): GeneratedRecord[] {
  const key = (item: GeneratedRecord): number =>
    item.type === 'valid' || item.type === 'expired'
      ? item.record.transaction_id
      : item.type === 'monthly_parkers'
        ? item.record.parkerid
        : item.record.id;
  return records.sort((a, b) => a.record.updated_at - b.record.updated_at || key(a) - key(b));
}

async function load(options: LoadOptions): Promise<LoadResult> {
  db.close();
  await db.delete();
  await db.open();
  index = new PlateIndex();
  const indexed: PlateIndexEntry[] = [];
  const syncTime = options.nowMs;
  const recordsByType = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as Record<SyncType, number>;
  const sample: SampledPlate[] = [];
  const upsertPageMs: number[] = [];
  let generateMs = 0;
  let idbWriteMs = 0;
  let seen = 0;
  const sampleRandom = seededRandom(options.querySeed);

  const writeType = async (type: SyncType, records: GeneratedRecord[]): Promise<void> => {
    for (let offset = 0; offset < records.length; offset += PAGE) {
      const page = records.slice(offset, offset + PAGE);
      let entries: PlateIndexEntry[];
      const writeStarted = performance.now();
      if (type === 'monthly_parkers') {
        const rows = page.map((item) => ({ ...(item.record as MonthlyParkerRecord), sync_time: syncTime }));
        const ids = await db.monthly_parkers.bulkAdd(rows, { allKeys: true });
        entries = rows.map((row, i) => ({
          source: 'monthly_parkers',
          key: ids[i]!,
          plate: row.license_plate,
          locationId: row.location_id,
          expiresAt: 0,
        }));
      } else if (type === 'valid' || type === 'expired') {
        const rows = page.map((item) => ({ ...(item.record as TransactionRecord), sync_time: syncTime }));
        await db.transactions.bulkPut(rows);
        entries = rows.map((row) => ({
          source: 'transactions',
          key: row.transaction_id,
          plate: row.license_plate,
          locationId: row.location_id,
          expiresAt: row.expiry_date_time_unix,
        }));
      } else {
        const rows = page.map((item) => ({ ...(item.record as BookingRecord), sync_time: syncTime }));
        await db[type].bulkPut(rows);
        entries = rows.map((row) => ({
          source: sourceOf(type),
          key: row.id,
          plate: row.license_plate,
          locationId: row.location_id,
          expiresAt: bookingExpiry(row),
        }));
      }
      idbWriteMs += performance.now() - writeStarted;
      const upsertStarted = performance.now();
      index.upsert(entries);
      upsertPageMs.push(performance.now() - upsertStarted);
      for (const entry of entries) indexed.push(entry);
    }
  };

  // The generator yields type by type; each type is written in sync order, then dropped.
  let current: SyncType | null = null;
  let batch: GeneratedRecord[] = [];
  let generateStarted = performance.now();
  for (const item of generateEnforcementRecords({
    counts: splitRecords(options.total),
    locations: options.locationIds,
    seed: options.seed,
    now: options.nowMs,
  })) {
    if (item.type !== current) {
      generateMs += performance.now() - generateStarted;
      if (current !== null) await writeType(current, syncOrder(batch));
      current = item.type;
      batch = [];
      generateStarted = performance.now();
    }
    batch.push(item);
    recordsByType[item.type]++;
    // Reservoir sample of stored plates for the query mix.
    seen++;
    const slot = seen <= 4000 ? seen - 1 : Math.floor(sampleRandom() * seen);
    if (slot < 4000) sample[slot] = { plate: item.record.license_plate, locationId: item.record.location_id };
  }
  generateMs += performance.now() - generateStarted;
  if (current !== null) await writeType(current, syncOrder(batch));
  batch = [];

  const queries = buildQueryMix(sample, options.querySeed);
  plain = plainPlates(indexed);

  const firstStarted = performance.now();
  index.match({ text: 'A', nowSeconds: Math.floor(options.nowMs / 1000) });
  const firstQueryMs = performance.now() - firstStarted;

  return {
    records: seen,
    recordsByType,
    generateMs,
    idbWriteMs,
    indexUpsertMs: upsertPageMs.reduce((sum, ms) => sum + ms, 0),
    upsertPageMs,
    firstQueryMs,
    indexBytes: index.byteLength,
    indexSize: index.size,
    queries,
    crossOriginIsolated: self.crossOriginIsolated,
  };
}

export type CategoryTotals = Record<(typeof SEARCH_CATEGORIES)[number], number>;

export interface SearchTiming {
  /** Finding the page's keys: PlateIndex.match, or the plain scan. */
  matchMs: number;
  /** Reading the result page's records (up to 10 per category) from IndexedDB, as the real worker does. */
  fetchMs: number;
  totals: CategoryTotals;
  /** Exact matches among `totals` (all of them unless `similar`). */
  exactTotals: CategoryTotals;
}

/** Either way of finding a query's page: the index or the plain scan. */
export type SearchWay = 'index' | 'plain';

function requirePlain(): PlainPlates {
  if (plain === null) throw new Error('the plain scan needs the worker that loaded the records');
  return plain;
}

/** The page's rows, read as the real worker reads them (one read transaction over the four tables). */
async function readRows(matches: PlateMatches): Promise<number> {
  return db.transaction('r', [db.transactions, db.spothero, db.parkwhiz, db.monthly_parkers], async () => {
    const lists = await Promise.all([
      db.transactions.bulkGet(matches.valid.keys),
      db.transactions.bulkGet(matches.expired.keys),
      db.spothero.bulkGet(matches.spothero.keys),
      db.parkwhiz.bulkGet(matches.parkwhiz.keys),
      db.monthly_parkers.bulkGet(matches.monthly_parkers.keys),
    ]);
    return lists.reduce((count, list) => count + list.length, 0);
  });
}

/** One query found the given way (with similar characters when `similar`), then its page's rows from IndexedDB. */
async function search(query: BenchQuery, nowSeconds: number, similar = false, way: SearchWay = 'index'): Promise<SearchTiming> {
  const started = performance.now();
  const request = { ...query, nowSeconds, similar };
  const matches = way === 'index' ? index.match(request) : plainMatch(requirePlain(), request);
  const matched = performance.now();
  await readRows(matches);
  const fetched = performance.now();
  const totals = Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, matches[category].total])) as CategoryTotals;
  const exactTotals = Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, matches[category].exactTotal])) as CategoryTotals;
  return { matchMs: matched - started, fetchMs: fetched - matched, totals, exactTotals };
}

/** The whole mix once, one way: each query's time from asking to its rows read (ms), in mix order. */
async function round(queries: BenchQuery[], nowSeconds: number, similar: boolean, way: SearchWay): Promise<SearchTiming[]> {
  const timings: SearchTiming[] = [];
  for (const query of queries) timings.push(await search(query, nowSeconds, similar, way));
  return timings;
}

/** The queries of the mix (exact and similar) where the plain scan and the index disagree: none, or the bench is wrong. */
function disagreements(queries: BenchQuery[], nowSeconds: number): string[] {
  const wrong: string[] = [];
  for (const similar of [false, true]) {
    for (const query of queries) {
      const request = { ...query, nowSeconds, similar };
      if (!sameMatches(index.match(request), plainMatch(requirePlain(), request))) wrong.push(`${JSON.stringify(query)}${similar ? ' similar' : ''}`);
    }
  }
  return wrong;
}

/** The cold start's baseline: one value the size of the snapshot, alone in a database of its own, read with a plain `get`. */
const PLAIN_DB = 'lpa-bench-search-plain';
const PLAIN_STORE = 'values';

function request<T>(asked: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error ?? new Error('IndexedDB request failed'));
  });
}

function openPlainDb(): Promise<IDBDatabase> {
  const opening = indexedDB.open(PLAIN_DB, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(PLAIN_STORE);
  return request(opening);
}

/** The snapshot's bytes in one Uint8Array: the same size and content as the value the cold start reads. */
function snapshotBytes(value: PlateIndexSnapshot): Uint8Array {
  const views: ArrayBufferView[] = [];
  const walk = (item: unknown): void => {
    if (ArrayBuffer.isView(item)) views.push(item);
    else if (typeof item === 'object' && item !== null) for (const child of Object.values(item)) walk(child);
  };
  walk(value);
  const bytes = new Uint8Array(views.reduce((sum, view) => sum + view.byteLength, 0));
  let offset = 0;
  for (const view of views) {
    bytes.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), offset);
    offset += view.byteLength;
  }
  return bytes;
}

/** Stores the index snapshot (as the real store does) and, for the baseline, its bytes as one plain value. */
async function saveSnapshot(): Promise<{ ms: number; bytes: number; plainBytes: number }> {
  const started = performance.now();
  const snapshot = index.toSnapshot();
  await db.plate_index.put({ name: 'plates', snapshot });
  const ms = performance.now() - started;
  const bytes = snapshotBytes(snapshot);
  const plainDb = await openPlainDb();
  const transaction = plainDb.transaction(PLAIN_STORE, 'readwrite');
  transaction.objectStore(PLAIN_STORE).put(bytes, 'snapshot');
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
  });
  plainDb.close();
  return { ms, bytes: index.byteLength, plainBytes: bytes.byteLength };
}

/** In a fresh worker: open the plain database and `get` the snapshot-sized value (the cold start's baseline). */
async function plainGet(): Promise<{ bytes: number }> {
  const plainDb = await openPlainDb();
  const value = await request(plainDb.transaction(PLAIN_STORE, 'readonly').objectStore(PLAIN_STORE).get('snapshot'));
  plainDb.close();
  if (!(value instanceof Uint8Array)) throw new Error('no plain value stored');
  return { bytes: value.byteLength };
}

export interface ColdStart {
  openMs: number;
  readMs: number;
  fromSnapshotMs: number;
  firstQueryMs: number;
  size: number;
}

/** After a reload: open the store, read the snapshot, rebuild the index and answer one query. */
async function openFromSnapshot(query: BenchQuery, nowSeconds: number): Promise<ColdStart> {
  const started = performance.now();
  await db.open();
  const opened = performance.now();
  const stored = await db.plate_index.get('plates');
  const read = performance.now();
  if (stored === undefined) throw new Error('no snapshot stored');
  index = PlateIndex.fromSnapshot(stored.snapshot);
  const rebuilt = performance.now();
  index.match({ ...query, nowSeconds });
  const answered = performance.now();
  return { openMs: opened - started, readMs: read - opened, fromSnapshotMs: rebuilt - read, firstQueryMs: answered - rebuilt, size: index.size };
}

function snapshot(): PlateIndexSnapshot {
  return index.toSnapshot();
}

/** The plain scan's plates, for the same scan on the page. */
function plainData(): PlainPlates {
  return requirePlain();
}

async function clear(): Promise<void> {
  db.close();
  await db.delete();
  await request(indexedDB.deleteDatabase(PLAIN_DB));
}

const api = { load, search, round, disagreements, saveSnapshot, openFromSnapshot, plainGet, snapshot, plainData, clear };
export type SearchWorkerApi = typeof api;
Comlink.expose(api);
