import { SEARCH_CATEGORIES, SEARCH_PAGE_SIZE, type SearchCategory } from './enforcement-worker-api';
import { buildPresenceSteps, carryPresenceSteps, isConfusable, presenceLength, presenceOf } from './plate-presence';
import {
  ACTIVE_FIRST,
  ANY_LOCATION,
  KEY_ORDER,
  LATEST_EXPIRY,
  SOONEST_EXPIRY,
  newSink,
  pageKeys,
  scanSegment,
  scanSegmentSimilar,
  type CategorySink,
  type SinkOrder,
} from './plate-scan';
import {
  CELL_WIDTH,
  OVERFLOW_MARK,
  cellWordsOf,
  emptySegment,
  findSlot,
  plateAt,
  rebuildSegmentSteps,
  segmentByteLength,
  type KeyColumn,
  type PlateSegment,
  type SegmentAdditions,
  type SlotMoves,
} from './plate-segment';
import { finishNow, runInSlices, type Steps } from './yield';

export type IndexSource = 'transactions' | 'spothero' | 'parkwhiz' | 'monthly_parkers';
export const INDEX_SOURCES = ['transactions', 'spothero', 'parkwhiz', 'monthly_parkers'] as const satisfies readonly IndexSource[];

export interface PlateIndexEntry {
  source: IndexSource;
  key: number;
  plate: string;
  locationId: number;
  /** unix seconds; 0 = never expires (monthly parkers) */
  expiresAt: number;
}

export interface PlateMatchQuery {
  text: string;
  locationId?: number;
  nowSeconds: number;
  /** Zero-based page per category; absent, negative or not finite means 0, fractions round down. */
  pages?: Partial<Record<SearchCategory, number>>;
  /** Default SEARCH_PAGE_SIZE. */
  pageSize?: number;
  /**
   * Also match plates that differ only by commonly misread characters (CONFUSABLE_GROUPS: O/0/Q/D, I/1/L, S/5,
   * B/8, Z/2, G/6). Default false.
   */
  similar?: boolean;
}

/**
 * One category's matches. Rows are ranked exact matches first (ascending key), then similar-but-not-exact ones
 * (ascending key); `total` and paging run over that order. Without `similar` every match is exact:
 * `exactTotal === total` and `similarFrom === keys.length`.
 */
export interface CategoryMatches {
  /** Every match: exact plus similar-only. */
  total: number;
  /** How many of `total` are exact matches. */
  exactTotal: number;
  /** The requested page clamped to the last page; 0 when there are no matches. */
  page: number;
  /** That page's keys in rank order: its exact matches (ascending), then its similar-only ones (ascending). */
  keys: number[];
  /** Index in `keys` where similar-only matches start: keys[i] is exact for i < similarFrom, similar after. */
  similarFrom: number;
}
export type PlateMatches = Record<SearchCategory, CategoryMatches>;

/**
 * 2: presence bitmaps gained the confusable-group rows and hash pairs of folded classes (75 rows, was 69). A snapshot
 * of another version is rejected by fromSnapshot, and the store rebuilds the index from its tables.
 */
export const PLATE_INDEX_SNAPSHOT_VERSION = 2;

export interface SegmentSnapshot {
  cells: Uint8Array;
  keys: KeyColumn;
  locationIds: Uint32Array;
  expiresAt: Uint32Array;
  overflowSlots: Uint32Array;
  overflowStarts: Uint32Array;
  overflowChars: Uint16Array;
  presence: Uint32Array;
}

/** Structured-cloneable (a number and typed arrays): store it in IndexedDB as one value. */
export interface PlateIndexSnapshot {
  version: number;
  transactions: SegmentSnapshot;
  spothero: SegmentSnapshot;
  parkwhiz: SegmentSnapshot;
  monthly_parkers: SegmentSnapshot;
}

const UINT32_MAX = 0xffff_ffff;
const PURGEABLE_SOURCES = ['transactions', 'spothero', 'parkwhiz'] as const satisfies readonly IndexSource[];
/** The category a source's matches go to; transactions split into valid and expired. */
const SOURCE_CATEGORY = { spothero: 'spothero', parkwhiz: 'parkwhiz', monthly_parkers: 'monthly_parkers' } as const;
/** Rank order within a category (see PlateIndex): what an officer must see first. */
const CATEGORY_ORDER: Record<SearchCategory, SinkOrder> = {
  valid: SOONEST_EXPIRY,
  expired: LATEST_EXPIRY,
  spothero: ACTIVE_FIRST,
  parkwhiz: ACTIVE_FIRST,
  monthly_parkers: KEY_ORDER,
};

function isUint32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= UINT32_MAX;
}

function checkEntry(entry: PlateIndexEntry): void {
  if (!Number.isFinite(entry.key)) throw new RangeError(`PlateIndex: key must be a finite number, got ${entry.key}`);
  if (typeof entry.plate !== 'string') throw new TypeError('PlateIndex: plate must be a string');
  if (!isUint32(entry.locationId)) throw new RangeError(`PlateIndex: locationId must be a uint32, got ${entry.locationId}`);
  if (!isUint32(entry.expiresAt)) throw new RangeError(`PlateIndex: expiresAt must be uint32 seconds, got ${entry.expiresAt}`);
}

/** Sorted by key, the last entry of a key winning, plates upper-cased. */
function toAdditions(entries: readonly PlateIndexEntry[]): SegmentAdditions {
  const order = entries.map((_, i) => i);
  order.sort((a, b) => entries[a]!.key - entries[b]!.key || a - b);
  const unique: number[] = [];
  for (let i = 0; i < order.length; i++) {
    const next = order[i + 1];
    if (next !== undefined && entries[next]!.key === entries[order[i]!]!.key) continue;
    unique.push(order[i]!);
  }
  const additions: SegmentAdditions = {
    keys: new Float64Array(unique.length),
    plates: new Array<string>(unique.length),
    locationIds: new Uint32Array(unique.length),
    expiresAt: new Uint32Array(unique.length),
  };
  unique.forEach((index, slot) => {
    const entry = entries[index]!;
    additions.keys[slot] = entry.key;
    additions.plates[slot] = entry.plate.toUpperCase();
    additions.locationIds[slot] = entry.locationId;
    additions.expiresAt[slot] = entry.expiresAt;
  });
  return additions;
}

function requestedPage(page: number | undefined): number {
  return page !== undefined && Number.isFinite(page) && page > 0 ? Math.floor(page) : 0;
}

function emptyMatches(): PlateMatches {
  const matches = {} as PlateMatches;
  for (const category of SEARCH_CATEGORIES) matches[category] = { total: 0, exactTotal: 0, page: 0, keys: [], similarFrom: 0 };
  return matches;
}

function segmentFromSnapshot(source: IndexSource, snapshot: SegmentSnapshot | undefined): PlateSegment {
  const fail = (why: string): never => {
    throw new TypeError(`PlateIndex.fromSnapshot: ${source} ${why}`);
  };
  if (snapshot === undefined || typeof snapshot !== 'object') return fail('is missing');
  const { cells, keys, locationIds, expiresAt, overflowSlots, overflowStarts, overflowChars, presence } = snapshot;
  if (!(cells instanceof Uint8Array) || !(overflowChars instanceof Uint16Array)) fail('plates have the wrong type');
  if (!(keys instanceof Float64Array || keys instanceof Uint32Array)) fail('keys have the wrong type');
  for (const column of [locationIds, expiresAt, overflowSlots, overflowStarts, presence]) {
    if (!(column instanceof Uint32Array)) fail('a column has the wrong type');
  }
  const size = keys.length;
  if (cells.length !== size * CELL_WIDTH || locationIds.length !== size || expiresAt.length !== size) fail('columns disagree in length');
  if (presence.length !== presenceLength(size)) fail('presence bitmaps have the wrong length');
  if (overflowStarts.length !== overflowSlots.length + 1 || overflowStarts[0] !== 0) fail('overflow offsets are malformed');
  if (overflowStarts[overflowSlots.length] !== overflowChars.length) fail('overflow offsets do not cover the plates');
  // Linear but cheap (~1 ms for 500k): binary search, the merge and the scan rely on these.
  for (let i = 1; i < size; i++) if (!(keys[i - 1]! < keys[i]!)) fail('keys are not ascending');
  let marked = 0;
  for (let cell = 0; cell < cells.length; cell += CELL_WIDTH) if (cells[cell] === OVERFLOW_MARK) marked++;
  if (marked !== overflowSlots.length) fail('overflow marks and overflow plates disagree');
  for (let i = 0; i < overflowSlots.length; i++) {
    const slot = overflowSlots[i]!;
    if (slot >= size || cells[slot * CELL_WIDTH] !== OVERFLOW_MARK || (i > 0 && slot <= overflowSlots[i - 1]!)) fail('overflow slots are wrong');
    if (overflowStarts[i]! > overflowStarts[i + 1]!) fail('overflow offsets are not ascending');
  }
  const overflow = { slots: overflowSlots, starts: overflowStarts, chars: overflowChars };
  return { cells, cellWords: cellWordsOf(cells), keys, locationIds, expiresAt, overflow, presence };
}

/**
 * A segment rebuilt with `drop` and `additions`. When the base's presence bitmaps are built (a query ran since its
 * last change), the new segment's are carried over rather than left to the next query to build from every plate;
 * `withPresence` builds the base's first when they are not (a sync's upserts: see upsertInSlices).
 */
function* rebuildSteps(
  base: PlateSegment,
  drop: Uint8Array | null,
  additions: SegmentAdditions | null,
  withPresence: boolean,
): Steps<PlateSegment> {
  if (base.presence === null && withPresence) base.presence = yield* buildPresenceSteps(base);
  const basePresence = base.presence;
  if (basePresence === null) return yield* rebuildSegmentSteps(base, drop, additions);
  const moves: SlotMoves = { runs: [], added: [] };
  const segment = yield* rebuildSegmentSteps(base, drop, additions, moves);
  segment.presence = yield* carryPresenceSteps(basePresence, base.keys.length, segment, moves);
  return segment;
}

function rebuild(base: PlateSegment, drop: Uint8Array | null, additions: SegmentAdditions | null): PlateSegment {
  return finishNow(rebuildSteps(base, drop, additions, false));
}

/** Flags (1) the slots of `base` holding any of `keys`; null when none does. */
function slotsOf(base: PlateSegment, keys: Iterable<number>): Uint8Array | null {
  let drop: Uint8Array | null = null;
  for (const key of keys) {
    const slot = findSlot(base.keys, key);
    if (slot < 0) continue;
    drop ??= new Uint8Array(base.keys.length);
    drop[slot] = 1;
  }
  return drop;
}

/** Checks every entry and groups them by source; throws before anything is changed. */
function groupBySource(entries: readonly PlateIndexEntry[]): Map<IndexSource, PlateIndexEntry[]> {
  const bySource = new Map<IndexSource, PlateIndexEntry[]>();
  for (const entry of entries) {
    checkEntry(entry);
    if (!INDEX_SOURCES.includes(entry.source)) throw new RangeError(`PlateIndex: unknown source ${String(entry.source)}`);
    let list = bySource.get(entry.source);
    if (list === undefined) bySource.set(entry.source, (list = []));
    list.push(entry);
  }
  return bySource;
}

/** How long a slice of upsertInSlices runs before it lets queued messages (searches) in. */
export const UPSERT_SLICE_MS = 4;

/**
 * The in-memory plate index the enforcement worker searches (spec §5): one compact segment per source holding the
 * upper-cased plate, key, location and expiry of every locally stored record, never the records themselves.
 *
 * Matching: the query is trimmed and upper-cased; an entry matches when its upper-cased plate contains it
 * (`plate.toUpperCase().includes(text.trim().toUpperCase())`). An empty query matches nothing.
 * Similar matching (`similar: true`): an entry also matches when, with every code unit of both upper-cased strings
 * mapped to its confusable group's first character (O/0/Q/D → O, I/1/L → I, S/5 → S, B/8 → B, Z/2 → Z, G/6 → G,
 * anything else to itself), the mapped plate contains the mapped query. Such a match is "similar" unless it is also
 * an exact match; each category lists its exact matches before its similar ones (CategoryMatches).
 * Categories: `valid` = transactions whose expiry is later than now (expiresAt > nowSeconds); `expired` = transactions
 * whose expiry is now or earlier (expiresAt <= nowSeconds: at its expiry second a payment no longer covers the car);
 * `spothero`, `parkwhiz`, `monthly_parkers` = entries of that source, whatever their expiry.
 * Order: within a category, exact matches then similar-only ones, each ranked for the officer: valid by soonest expiry,
 * expired by most recent expiry, SpotHero/ParkWhiz active (expiry after now) first, soonest ending first, then ended
 * ones, most recent first; monthly parkers (no expiry in the index) by ascending key. Ties keep ascending key.
 * Segments keep key order at write time; a query keeps only the best `to` matches per category while it scans (one
 * comparison per match), so it never sorts all matches.
 *
 * Costs at 500k entries (bench/search.bench.ts, BENCHMARKS.md at f3b7360): a query ~0.3 ms at p50, exact or similar (a
 * similar query costs more only when it has a confusable character and many similar matches); an upsert of a 2000-entry
 * sync page 4–15 ms (each write rebuilds the touched source's segment, and carries its presence bitmaps over once a
 * query has built them), which a sync runs in slices (upsertInSlices); the first query after a load builds a
 * segment's bitmaps (~15-35 ms), as does toSnapshot; fromSnapshot adopts the arrays (~5 ms of checks).
 * `nowSeconds` may be fractional (`request.now / 1000`).
 */
export class PlateIndex {
  #segments: Record<IndexSource, PlateSegment> = {
    transactions: emptySegment(),
    spothero: emptySegment(),
    parkwhiz: emptySegment(),
    monthly_parkers: emptySegment(),
  };

  #slicedUpserts: Promise<void> = Promise.resolve();

  /** Inserts entries, replacing any held under the same (source, key); within one call the last entry of a key wins. */
  upsert(entries: readonly PlateIndexEntry[]): void {
    for (const [source, list] of groupBySource(entries)) this.#upsertSource(source, list);
  }

  #upsertSource(source: IndexSource, list: readonly PlateIndexEntry[]): void {
    const base = this.#segments[source];
    const additions = toAdditions(list);
    this.#segments[source] = rebuild(base, slotsOf(base, additions.keys), additions);
  }

  /**
   * upsert for a running sync: the new segment is built in slices of about `sliceMs`, with `pause()` between them
   * (yieldToMessages: a search asked meanwhile runs then, against the index as it was), and replaces the old one when
   * the returned promise resolves: the upsert takes effect then, as one upsert made at that moment (if the source's
   * segment was changed meanwhile, it is applied again to what is there, at once). Calls are applied in call order.
   * The new segment always has its presence bitmaps (built first from the base if no query has built them): a search
   * during a sync never builds them, which took the sync's first search 10–15 ms at 60,000 entries, and an upsert
   * rebuilt in one piece (~10–15 ms at 200–500k entries) was what the slowest searches during a sync waited for.
   * Entries are checked at once: a bad one rejects before anything changes.
   */
  async upsertInSlices(entries: readonly PlateIndexEntry[], pause: () => Promise<void>, sliceMs = UPSERT_SLICE_MS): Promise<void> {
    const groups = groupBySource(entries);
    const run = this.#slicedUpserts.then(async () => {
      for (const [source, list] of groups) {
        const base = this.#segments[source];
        const additions = toAdditions(list);
        const segment = await runInSlices(rebuildSteps(base, slotsOf(base, additions.keys), additions, true), pause, sliceMs);
        if (this.#segments[source] === base) this.#segments[source] = segment;
        else this.#upsertSource(source, list);
      }
    });
    this.#slicedUpserts = run.catch(() => undefined);
    return run;
  }

  remove(source: IndexSource, keys: readonly number[]): void {
    const base = this.#segments[source];
    const drop = slotsOf(base, keys);
    if (drop !== null) this.#segments[source] = rebuild(base, drop, null);
  }

  /** Drops transactions, SpotHero and ParkWhiz entries whose expiry is before `unixSeconds`; returns how many. */
  removeExpiredBefore(unixSeconds: number): number {
    let removed = 0;
    for (const source of PURGEABLE_SOURCES) {
      const base = this.#segments[source];
      const { expiresAt } = base;
      let drop: Uint8Array | null = null;
      let dropped = 0;
      for (let slot = 0; slot < expiresAt.length; slot++) {
        if (expiresAt[slot]! >= unixSeconds) continue;
        drop ??= new Uint8Array(expiresAt.length);
        drop[slot] = 1;
        dropped++;
      }
      if (drop !== null) this.#segments[source] = rebuild(base, drop, null);
      removed += dropped;
    }
    return removed;
  }

  clear(): void {
    for (const source of INDEX_SOURCES) this.#segments[source] = emptySegment();
  }

  match(query: PlateMatchQuery): PlateMatches {
    const pageSize = query.pageSize ?? SEARCH_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`PlateIndex: pageSize must be a positive integer, got ${pageSize}`);
    const needle = query.text.trim().toUpperCase();
    const { locationId } = query;
    // Real location ids are uint32; any other filter value matches nothing (and must not read as ANY_LOCATION).
    if (needle === '' || (locationId !== undefined && !isUint32(locationId))) return emptyMatches();
    const location = locationId ?? ANY_LOCATION;
    // Without a confusable character in the query, similar matches are exactly the exact ones.
    let similar = false;
    if (query.similar === true) for (let i = 0; i < needle.length && !similar; i++) similar = isConfusable(needle.charCodeAt(i));
    const scan = similar ? scanSegmentSimilar : scanSegment;

    const sinks = {} as Record<SearchCategory, CategorySink>;
    const sinkFor = (category: SearchCategory, from: number, size: number) =>
      newSink(from, size, CATEGORY_ORDER[category], query.nowSeconds);
    for (const category of SEARCH_CATEGORIES) sinks[category] = sinkFor(category, requestedPage(query.pages?.[category]) * pageSize, pageSize);
    const scanSource = (source: IndexSource, target: Record<SearchCategory, CategorySink>): void => {
      if (source === 'transactions') {
        scan(this.#segments.transactions, needle, location, query.nowSeconds, target.valid, target.expired);
      } else {
        const sink = target[SOURCE_CATEGORY[source]];
        scan(this.#segments[source], needle, location, -1, sink, sink);
      }
    };
    for (const source of INDEX_SOURCES) scanSource(source, sinks);

    const matches = {} as PlateMatches;
    for (const category of SEARCH_CATEGORIES) {
      let sink = sinks[category];
      const exactTotal = sink.count;
      const total = exactTotal + sink.similarCount;
      let page = sink.from / pageSize;
      if (total > 0 && sink.from >= total) {
        // Past the last page: clamp, and scan that source again for the last page's keys (rare: stale paging).
        page = Math.ceil(total / pageSize) - 1;
        const again = {} as Record<SearchCategory, CategorySink>;
        for (const other of SEARCH_CATEGORIES) again[other] = sinkFor(other, other === category ? page * pageSize : 0, other === category ? pageSize : 0);
        scanSource(category === 'valid' || category === 'expired' ? 'transactions' : category, again);
        sink = again[category];
      } else if (total === 0) {
        page = 0;
      }
      // The page's exact keys are collected; its similar ones are similar ranks [from − exactTotal, to − exactTotal).
      const keys = pageKeys(sink);
      const { similarKeys } = sink;
      const similarFrom = keys.length;
      const similarEnd = Math.min(similarKeys.length, sink.to - exactTotal);
      for (let rank = Math.max(0, sink.from - exactTotal); rank < similarEnd; rank++) keys.push(similarKeys[rank]!);
      matches[category] = { total, exactTotal, page, keys, similarFrom };
    }
    return matches;
  }

  /**
   * Entries held for `source`; with `laterThan`, only those whose expiry is later (the valid side of the split
   * `match` makes for transactions). What the status totals count: the tables, staged and pending pages, each record
   * once, with no IndexedDB count (which on Chromium 150 took ~1 s for 100,000 rows of an index range).
   */
  count(source: IndexSource, laterThan?: number): number {
    const { keys, expiresAt } = this.#segments[source];
    if (laterThan === undefined) return keys.length;
    let later = 0;
    for (let slot = 0; slot < expiresAt.length; slot++) if (expiresAt[slot]! > laterThan) later++;
    return later;
  }

  /** The plate held for (source, key), upper-cased as the index compares it; undefined when none is held. */
  plateOf(source: IndexSource, key: number): string | undefined {
    const segment = this.#segments[source];
    const slot = findSlot(segment.keys, key);
    return slot < 0 ? undefined : plateAt(segment, slot);
  }

  get size(): number {
    let size = 0;
    for (const source of INDEX_SOURCES) size += this.#segments[source].keys.length;
    return size;
  }

  /**
   * Bytes the index holds: its typed arrays (plate cells, keys, locations, expiries, overflow plates), including the
   * presence bitmaps once built (the first query after a change builds them).
   */
  get byteLength(): number {
    let bytes = 0;
    for (const source of INDEX_SOURCES) bytes += segmentByteLength(this.#segments[source]);
    return bytes;
  }

  /**
   * Shares the segments' arrays (segments are immutable; cloning the snapshot for postMessage or an IndexedDB put
   * copies them). Builds any presence bitmaps not built yet, so a restored index answers its first query at once.
   */
  toSnapshot(): PlateIndexSnapshot {
    const segment = (source: IndexSource): SegmentSnapshot => {
      const current = this.#segments[source];
      const { cells, keys, locationIds, expiresAt, overflow } = current;
      return {
        cells,
        keys,
        locationIds,
        expiresAt,
        overflowSlots: overflow.slots,
        overflowStarts: overflow.starts,
        overflowChars: overflow.chars,
        presence: presenceOf(current),
      };
    };
    return {
      version: PLATE_INDEX_SNAPSHOT_VERSION,
      transactions: segment('transactions'),
      spothero: segment('spothero'),
      parkwhiz: segment('parkwhiz'),
      monthly_parkers: segment('monthly_parkers'),
    };
  }

  /**
   * Adopts the snapshot's arrays without copying (the caller must not write to them afterwards). Throws a TypeError
   * on a snapshot of another version or an inconsistent one: rebuild from the store then.
   */
  static fromSnapshot(snapshot: PlateIndexSnapshot): PlateIndex {
    if (snapshot === null || typeof snapshot !== 'object' || snapshot.version !== PLATE_INDEX_SNAPSHOT_VERSION) {
      throw new TypeError(`PlateIndex.fromSnapshot: unsupported snapshot version ${String(snapshot?.version)}`);
    }
    const index = new PlateIndex();
    for (const source of INDEX_SOURCES) index.#segments[source] = segmentFromSnapshot(source, snapshot[source]);
    return index;
  }
}
