import * as Comlink from 'comlink';
import { Dexie, type Table } from 'dexie';
import {
  SYNC_TYPES,
  type BookingRecord,
  type MonthlyParkerRecord,
  type SyncType,
  type TransactionRecord,
} from '../../src/contract/enforcement';
import { SEARCH_CATEGORIES, SEARCH_PAGE_SIZE } from '../../src/worker/enforcement-worker-api';
import { PlateIndex, type IndexSource, type PlateIndexEntry, type PlateIndexSnapshot } from '../../src/worker/plate-index';
import { generateEnforcementRecords, splitRecords, type GeneratedRecord } from '../../server/db/seed/enforcement-data';
import { buildQueryMix, seededRandom, type BenchQuery, type SampledPlate } from './search-queries';

/**
 * The bench's worker: generates the records (server/db/seed/enforcement-data.ts), stores them in IndexedDB tables
 * named as the store names them (spec §3), feeds the plate index page by page as a sync would, and answers searches
 * three ways (index, naive Dexie filter, snapshot cold start). Timing is taken here, in the worker.
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
    // Primary keys only: the baseline scans whole tables, and fewer indexes load faster.
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
  /** PlateIndex.match alone. */
  matchMs: number;
  /** Reading the result page's records (up to 10 per category) from IndexedDB, as the real worker does. */
  fetchMs: number;
  totals: CategoryTotals;
  /** Exact matches among `totals` (all of them unless `similar`). */
  exactTotals: CategoryTotals;
  rows: number;
}

/** One query through the index (with similar characters when `similar`), then its page's rows from IndexedDB. */
async function search(query: BenchQuery, nowSeconds: number, similar = false): Promise<SearchTiming> {
  const started = performance.now();
  const matches = index.match({ ...query, nowSeconds, similar });
  const matched = performance.now();
  const rows = await db.transaction('r', [db.transactions, db.spothero, db.parkwhiz, db.monthly_parkers], async () => {
    const lists = await Promise.all([
      db.transactions.bulkGet(matches.valid.keys),
      db.transactions.bulkGet(matches.expired.keys),
      db.spothero.bulkGet(matches.spothero.keys),
      db.parkwhiz.bulkGet(matches.parkwhiz.keys),
      db.monthly_parkers.bulkGet(matches.monthly_parkers.keys),
    ]);
    return lists.reduce((count, list) => count + list.length, 0);
  });
  const fetched = performance.now();
  const totals = Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, matches[category].total])) as CategoryTotals;
  const exactTotals = Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, matches[category].exactTotal])) as CategoryTotals;
  return { matchMs: matched - started, fetchMs: fetched - matched, totals, exactTotals, rows };
}

export interface BaselineTiming {
  query: BenchQuery;
  ms: number;
  totals: CategoryTotals;
  /** Whether the index gave the same totals and the same first-page keys. */
  agrees: boolean;
}

/**
 * The naive way: Dexie `.filter()` over each whole table, upper-casing every plate, then splitting transactions by
 * expiry and taking the first page. Runs queries until `budgetMs` is spent (at least `minimum`).
 */
async function baseline(queries: BenchQuery[], nowSeconds: number, budgetMs: number, minimum: number): Promise<BaselineTiming[]> {
  const timings: BaselineTiming[] = [];
  const started = performance.now();
  for (const query of queries) {
    if (timings.length >= minimum && performance.now() - started > budgetMs) break;
    const needle = query.text.trim().toUpperCase();
    const wanted = (row: { license_plate: string; location_id: number }) =>
      (query.locationId === undefined || row.location_id === query.locationId) && row.license_plate.toUpperCase().includes(needle);
    const queryStarted = performance.now();
    const transactions = await db.transactions.filter(wanted).toArray();
    const spothero = await db.spothero.filter(wanted).toArray();
    const parkwhiz = await db.parkwhiz.filter(wanted).toArray();
    const monthly = await db.monthly_parkers.filter(wanted).toArray();
    const valid = transactions.filter((row) => row.expiry_date_time_unix > nowSeconds);
    const expired = transactions.filter((row) => row.expiry_date_time_unix <= nowSeconds);
    const firstPages = {
      valid: valid.slice(0, SEARCH_PAGE_SIZE).map((row) => row.transaction_id),
      expired: expired.slice(0, SEARCH_PAGE_SIZE).map((row) => row.transaction_id),
      spothero: spothero.slice(0, SEARCH_PAGE_SIZE).map((row) => row.id),
      parkwhiz: parkwhiz.slice(0, SEARCH_PAGE_SIZE).map((row) => row.id),
      monthly_parkers: monthly.slice(0, SEARCH_PAGE_SIZE).map((row) => row.id!),
    };
    const ms = performance.now() - queryStarted;
    const totals: CategoryTotals = {
      valid: valid.length,
      expired: expired.length,
      spothero: spothero.length,
      parkwhiz: parkwhiz.length,
      monthly_parkers: monthly.length,
    };
    const fromIndex = index.match({ text: query.text, locationId: query.locationId, nowSeconds });
    const agrees = SEARCH_CATEGORIES.every(
      (category) =>
        fromIndex[category].total === totals[category] &&
        JSON.stringify(fromIndex[category].keys) === JSON.stringify(firstPages[category]),
    );
    timings.push({ query, ms, totals, agrees });
  }
  return timings;
}

async function saveSnapshot(): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const snapshot = index.toSnapshot();
  await db.plate_index.put({ name: 'plates', snapshot });
  return { ms: performance.now() - started, bytes: index.byteLength };
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

async function clear(): Promise<void> {
  db.close();
  await db.delete();
}

const api = { load, search, baseline, saveSnapshot, openFromSnapshot, snapshot, clear };
export type SearchWorkerApi = typeof api;
Comlink.expose(api);
