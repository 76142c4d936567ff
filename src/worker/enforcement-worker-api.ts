import type { SyncType } from '../contract/enforcement';

/**
 * What crosses between the page and the enforcement worker (Comlink). Only small values cross: progress, status,
 * and the ten rows per category a search shows. Records are fetched, parsed, stored and indexed in the worker.
 */

/** Local search categories (spec §5): transactions split at search time by expiry, then the three other sources. */
export const SEARCH_CATEGORIES = ['valid', 'expired', 'spothero', 'parkwhiz', 'monthly_parkers'] as const;
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number];
export const SEARCH_PAGE_SIZE = 10;

export interface SyncTypeStatus {
  type: SyncType;
  /** Epoch ms of the last completed sync of this type, null when never synced. */
  lastSync: number | null;
  /** Records of this type held locally (sync_info.total_transactions). */
  totalRecords: number;
  /** Newest updated_at (unix seconds) held for this type, null when none; monthly parkers skip a sync when it is today. */
  latestUpdatedAt: number | null;
}

export interface StoreStatus {
  /** False when the browser has no IndexedDB: lookups return empty results (spec §8) and `reason` says why. */
  available: boolean;
  reason: string | null;
  /** True when sync_info holds nothing: a fresh full sync is needed (spec §4). */
  empty: boolean;
  types: SyncTypeStatus[];
  /** navigator.storage.estimate() and whether persistence was granted. */
  storage: { usageBytes: number | null; quotaBytes: number | null; persisted: boolean | null };
  /**
   * True when this page's opening found a store of another version than 2.7 and made it afresh (spec §8). The citation
   * outbox is another database and keeps its citations; the page tells the officer so (decision 0097).
   */
  rebuilt: boolean;
}

export interface SyncProgress {
  type: SyncType;
  pagesDone: number;
  recordsDone: number;
}

export interface SyncAuth {
  /** Called before each page: the Firebase ID token may be refreshed during a long sync. */
  getIdToken(): Promise<string | null>;
  /** The server session token from the stored session (`lpa`). */
  sessionToken: string | null;
}

export interface SyncTypeRequest {
  type: SyncType;
  apiBase: string;
  locationIds: number[];
  /** Wall clock (epoch ms) the page uses, so tests and the machine agree on "today" and "now". */
  now: number;
}

export type SyncTypeResult =
  | { outcome: 'done'; pages: number; records: number; stoppedBy: 'shortPage' | 'emptyPage' | 'pageCap' }
  | { outcome: 'skipped'; reason: 'monthlyParkersUpdatedToday' }
  /** Sync errors stop that type only (spec §8); `sessionError` carries TokenExpired/NoTokenProvided/InvalidToken. */
  | { outcome: 'failed'; pages: number; records: number; message: string; sessionError: string | null };

export interface PlateSearchRequest {
  /** What the officer typed; matched case-insensitively as a substring of license_plate (spec §5). */
  text: string;
  /** Limit to one location; undefined for all of the officer's locations. */
  locationId?: number;
  /** Epoch ms deciding valid (expiry later than now) from expired. */
  now: number;
  /** Zero-based page per category; absent means 0. */
  pages?: Partial<Record<SearchCategory, number>>;
  /**
   * Similar characters: also match plates that differ only by commonly misread characters (O/0/Q/D, I/1/L, S/5,
   * B/8, Z/2, G/6). Absent or false: exact matches only. The UI defaults its toggle on.
   */
  similar?: boolean;
}

/** How a row matched: its plate contains the text as typed, or only with misread characters swapped (`similar`). */
export type PlateMatchKind = 'exact' | 'similar';

export interface TransactionRow {
  category: 'valid' | 'expired';
  match: PlateMatchKind;
  transaction_id: number;
  location_id: number;
  license_plate: string;
  expiry_date_time: string;
  expiry_date_time_unix: number;
  phone_number: string | null;
  payment_time: string;
  payment_amount: number;
  /** All of the payment refunded: it pays for nothing (a partial refund still pays; store-records.ts decides). */
  refunded: boolean;
}
export interface BookingRow {
  category: 'spothero' | 'parkwhiz';
  match: PlateMatchKind;
  id: number;
  location_id: number;
  license_plate: string;
  expiry_date_time: string;
  created_at: string;
  payment_amount: number;
  payment_time: string;
}
export interface MonthlyParkerRow {
  category: 'monthly_parkers';
  match: PlateMatchKind;
  id: number;
  location_id: number;
  license_plate: string;
  vehicleStatus: string;
  parkerid: number;
  fname: string;
  lname: string;
  homephone: string | null;
  mobilephone: string | null;
  workphone: string | null;
  parkerStatus: string;
}
export type PlateRow = TransactionRow | BookingRow | MonthlyParkerRow;

export interface CategoryResult {
  /** Every match: exact plus, with `similar`, similar-only ones. */
  total: number;
  /** How many of `total` are exact matches (equal to `total` without `similar`). */
  exactTotal: number;
  /** The page actually returned (clamped to the last page). */
  page: number;
  /**
   * Exact matches first, then similar ones, each ranked for the officer (PlateIndex): valid soonest expiry first,
   * expired most recent first, bookings active first; monthly parkers by key, each page's Active parkers first.
   * Paging runs over that order.
   */
  rows: PlateRow[];
}
export type PlateSearchResult = Record<SearchCategory, CategoryResult>;

/** A read-ahead: the first pages for `text` followed by each character an officer may type next. */
export interface SearchAheadRequest {
  /** The text whose answer the screen shows now (upper case, trimmed). */
  text: string;
  locationId?: number;
  now: number;
  similar?: boolean;
  /** Rows the screen shows with an answer's first paint: each answer is cut to them and the verdict's rows. */
  firstPaintRows: number;
  /** The characters to append, one search each, in this order (likeliest first); others than PLATE_SYMBOLS' skipped. */
  symbols: string;
  /** Stop after this many ms (from when the worker starts on it), answering the characters done by then. */
  budgetMs: number;
}

/** Keyed by the character appended to the request's text: each answer cut by `firstPaintSlice`. */
export type SearchAheadAnswers = Record<string, PlateSearchResult>;

/** The worker's interface (src/worker/enforcement.worker.ts exposes an object of this type with Comlink). */
export interface EnforcementWorkerApi {
  /** Opens (or rebuilds, when its version is not 2.7) the store and makes the plate index ready. */
  open(): Promise<StoreStatus>;
  status(): Promise<StoreStatus>;
  syncType(request: SyncTypeRequest, auth: SyncAuth, onProgress: (progress: SyncProgress) => void): Promise<SyncTypeResult>;
  /** Deletes records whose expiry is more than 21 days before `now` (spec §9). */
  purge(now: number): Promise<{ purged: number }>;
  search(request: PlateSearchRequest): Promise<PlateSearchResult>;
  /**
   * Answers for the next keystroke before it comes, so that the screen paints them with the typed character. Runs one
   * search per character between other messages, until its time budget is spent; null when a newer search or
   * read-ahead came first (it stops there).
   */
  searchAhead(request: SearchAheadRequest): Promise<SearchAheadAnswers | null>;
  /** Sign-out: empties every table and the index. */
  clear(): Promise<void>;
}
