import Dexie, { type Table } from 'dexie';
import type {
  BookingRecord,
  MonthlyParkerRecord,
  SyncType,
  TransactionRecord,
} from '../contract/enforcement';
import type { StoredPackedRows } from './packed-rows';
import type { IndexSource, PlateIndexSnapshot } from './plate-index';
import { requestResult, transactionDone } from './store-idb';

/**
 * The enforcement worker's local store (spec §3, docs/enforcement-sync.md): the five tables of the spec plus the
 * bookkeeping that makes sync resumable and search fast. Dexie declares the schema and opens the database; the hot
 * paths (page staging, expansion, index rebuild) use the raw IndexedDB connection underneath.
 */
export const STORE_NAME = 'lpa-enforcement';
/** Spec §3/§9. Dexie keeps version v as IndexedDB version v × 10. */
export const STORE_VERSION = 2.7;
export const STORE_IDB_VERSION = 27;

export type StoredTransaction = TransactionRecord & { sync_time: number };
/** `expiry_unix` is expiry_date_time in unix seconds (0 when unparseable), for purge and the plate index. */
export type StoredBooking = BookingRecord & { sync_time: number; expiry_unix: number };
export type StoredMonthlyParker = MonthlyParkerRecord & { id: number; sync_time: number };
export type StoredRecord = StoredTransaction | StoredBooking | StoredMonthlyParker;

export interface SyncInfoRow {
  type: SyncType;
  /** Epoch ms of the last completed sync of the type. */
  last_sync: number;
  total_transactions: number;
}

/** Where the next page of a type starts (sync-cursor.ts), and the locations it was built for. */
export interface SyncCursorRow {
  type: SyncType;
  updated_at: number | null;
  offset: number;
  last_identity: string | null;
  locationIds: number[];
  /** True once a sync of the type ran to its end (a short or empty page) from this cursor. */
  complete: boolean;
}

/**
 * A page staged durably in one small transaction: its keys and expiries (read at open to know what is staged) …
 */
export interface StagedPageRow {
  seq: number;
  type: SyncType;
  source: IndexSource;
  /** The page's record keys in page order. */
  keys: Float64Array;
  expiresAt: Uint32Array;
}
/**
 * … and its rows, one JSON string per stored record, until expansion moves them into their table: in chunks of
 * STAGED_CHUNK_ROWS (store-staging.ts) keyed [seq, chunk], so that a search showing one row reads ~100 rows, not the
 * page's 2000 (~560 KB, which Chromium also stores as a blob beyond 64 KB). A number key is a whole page, as stores
 * staged before the chunks have them.
 */
export interface StagedRowsRow {
  seq: number | [seq: number, chunk: number];
  rows: string[];
}
/**
 * … or, keyed [seq, 'packed'], the whole page in columns (packed-rows.ts, ~50 bytes a record instead of ~290 as JSON),
 * which is how a page is staged when its rows share one shape.
 */
export interface StagedPackedRow {
  seq: [seq: number, packed: 'packed'];
  packed: StoredPackedRows;
}

/** Staged pages up to `seq` are in their tables. Only the expansion transaction writes it. */
export interface ExpansionRow {
  id: 'watermark';
  seq: number;
}

/**
 * The plate index as of store generation `generation`: its snapshot's arrays are stored in pieces
 * (PlateIndexPieceRow, store-plate-index.ts), listed here in order. A row of the earlier shape (the whole snapshot in
 * one value) has no `arrays`: the index is rebuilt from the tables then.
 */
export interface PlateIndexRow {
  id: 'current';
  generation: number;
  version: PlateIndexSnapshot['version'];
  arrays: SnapshotArrayRow[];
}

/** One array of a segment's snapshot: which, its type and length, and how many pieces hold it. */
export interface SnapshotArrayRow {
  source: IndexSource;
  field: string;
  type: 'Uint8Array' | 'Uint16Array' | 'Uint32Array' | 'Float64Array';
  length: number;
  pieces: number;
}

/** A piece of a snapshot array; pieces are numbered across the arrays, in the order PlateIndexRow lists them. */
export interface PlateIndexPieceRow {
  id: ['piece', number];
  data: Uint8Array | Uint16Array | Uint32Array | Float64Array;
}

/** `generation` counts changes of the store's content; every staging, purge and clear bumps it. */
export interface MetaRow {
  key: 'generation';
  value: number;
}

export const STORE_SCHEMA = {
  transactions: 'transaction_id, expiry_date_time_unix',
  parkwhiz: 'id, expiry_unix',
  spothero: 'id, expiry_unix',
  // Unique: a parker re-synced replaces its row instead of adding one (the server sends no id of its own).
  monthly_parkers: '++id, &[location_id+parkerid+license_plate]',
  sync_info: 'type',
  sync_cursor: 'type',
  staged_pages: 'seq',
  staged_rows: 'seq',
  expansion: 'id',
  plate_index: 'id',
  meta: 'key',
} as const;
export type StoreTableName = keyof typeof STORE_SCHEMA;

export const MONTHLY_PARKER_UNIQUE_INDEX = '[location_id+parkerid+license_plate]';

/** valid and expired both land in `transactions`. */
export const SOURCE_OF_TYPE = {
  valid: 'transactions',
  expired: 'transactions',
  spothero: 'spothero',
  parkwhiz: 'parkwhiz',
  monthly_parkers: 'monthly_parkers',
} as const satisfies Record<SyncType, IndexSource>;

export const PURGED_SOURCES = ['transactions', 'spothero', 'parkwhiz'] as const satisfies readonly IndexSource[];
/** The indexed expiry field of each purged table. */
export const EXPIRY_FIELD = {
  transactions: 'expiry_date_time_unix',
  spothero: 'expiry_unix',
  parkwhiz: 'expiry_unix',
} as const;

export class EnforcementStore extends Dexie {
  declare transactions: Table<StoredTransaction, number>;
  declare parkwhiz: Table<StoredBooking, number>;
  declare spothero: Table<StoredBooking, number>;
  declare monthly_parkers: Table<StoredMonthlyParker, number>;
  declare sync_info: Table<SyncInfoRow, SyncType>;
  declare sync_cursor: Table<SyncCursorRow, SyncType>;
  declare staged_pages: Table<StagedPageRow, number>;
  declare staged_rows: Table<StagedRowsRow | StagedPackedRow, number | [number, number] | [number, 'packed']>;
  declare expansion: Table<ExpansionRow, string>;
  declare plate_index: Table<PlateIndexRow | PlateIndexPieceRow, string | [string, number]>;
  declare meta: Table<MetaRow, string>;

  constructor(factory: IndexedDbFactory, name: string = STORE_NAME) {
    super(name, {
      indexedDB: factory.indexedDB,
      IDBKeyRange: factory.IDBKeyRange,
      // Chrome's default since 121; the writes are re-fetchable, so an OS crash losing the last second is fine.
      chromeTransactionDurability: 'relaxed',
    });
    this.version(STORE_VERSION).stores(STORE_SCHEMA);
  }
}

export interface IndexedDbFactory {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

export const NO_INDEXED_DB = 'This browser has no IndexedDB, so plates cannot be stored for offline search.';

/** The browser's IndexedDB, or why there is none (spec §8: lookups then return empty results). */
export function browserIndexedDb(): IndexedDbFactory | string {
  try {
    const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    const keyRange = (globalThis as { IDBKeyRange?: typeof IDBKeyRange }).IDBKeyRange;
    if (!factory || !keyRange) return NO_INDEXED_DB;
    return { indexedDB: factory, IDBKeyRange: keyRange };
  } catch (error) {
    // Some browsers throw a SecurityError on merely reading `indexedDB` (blocked storage).
    return `IndexedDB is not accessible here: ${describeError(error)}`;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return error.message || error.name;
  return String(error);
}

/** The installed IndexedDB version of `name`, or null when there is no such database (none is created). */
export function installedVersion(factory: IDBFactory, name: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    let absent = false;
    const request = factory.open(name);
    request.onupgradeneeded = () => {
      // Opening without a version creates an empty database; abort so that nothing is left behind.
      absent = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => {
      const version = request.result.version;
      request.result.close();
      resolve(version);
    };
    request.onerror = (event) => {
      if (absent) {
        event.preventDefault();
        resolve(null);
      } else {
        reject(request.error ?? new Error(`Could not open ${name}`));
      }
    };
  });
}

const DELETE_BLOCKED_TIMEOUT_MS = 10_000;

export function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    request.onblocked = () => {
      // Another tab holds the old version open; it gets a versionchange event and should close.
      timer ??= setTimeout(
        () => reject(new Error('The old local store is held open by another tab; close other tabs and reload.')),
        DELETE_BLOCKED_TIMEOUT_MS,
      );
    };
    request.onsuccess = () => {
      clearTimeout(timer);
      resolve();
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(request.error ?? new Error(`Could not delete ${name}`));
    };
  });
}

/**
 * Opens the store. Spec §8: a store of any version other than 2.7 (IndexedDB 27) is deleted and created afresh;
 * checking first keeps Dexie from upgrading an older store in place or opening a newer one as it is.
 */
export async function openEnforcementStore(
  factory: IndexedDbFactory,
  name: string = STORE_NAME,
): Promise<{ store: EnforcementStore; rebuilt: boolean }> {
  const version = await installedVersion(factory.indexedDB, name);
  const rebuilt = version !== null && version !== STORE_IDB_VERSION;
  if (rebuilt) await deleteDatabase(factory.indexedDB, name);
  const store = new EnforcementStore(factory, name);
  await store.open();
  return { store, rebuilt };
}

/** Reads the generation inside a transaction that includes `meta`. */
export async function readGeneration(tx: IDBTransaction): Promise<number> {
  const row = (await requestResult(tx.objectStore('meta').get('generation'))) as MetaRow | undefined;
  return row?.value ?? 0;
}

/** Moves the generation on in a transaction of its own (the index and its snapshot no longer describe the store). */
export async function bumpStoredGeneration(db: IDBDatabase): Promise<void> {
  const tx = db.transaction('meta', 'readwrite', { durability: 'relaxed' });
  const done = transactionDone(tx);
  const previous = await readGeneration(tx);
  tx.objectStore('meta').put({ key: 'generation', value: previous + 1 } satisfies MetaRow);
  await done;
}
