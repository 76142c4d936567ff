import { PackedRows } from './packed-rows';
import type { IndexSource } from './plate-index';
import {
  MONTHLY_PARKER_UNIQUE_INDEX,
  readGeneration,
  type ExpansionRow,
  type StagedPackedRow,
  type StagedPageRow,
  type StagedRowsRow,
  type StoredMonthlyParker,
  type StoredRecord,
  type SyncCursorRow,
} from './store';
import { abortQuietly, requestResult, transactionDone } from './store-idb';
import type { PreparedPage } from './store-records';

/**
 * Two-step writing (docs/enforcement-sync.md "Searchable, durable, expanded"):
 * 1. stage: a page goes into IndexedDB as ONE value (its rows in columns, packed-rows.ts; or as JSON strings in
 *    chunks when they do not share one shape) together with the cursor advance, in one small transaction. IndexedDB
 *    takes one value per page ~20× faster than one row per record, so pages are durable and searchable at the speed
 *    they arrive.
 * 2. expand: in the background, each staged page's rows are put one by one into their spec table (raw puts, relaxed
 *    durability) in short transactions (slices), the last of them with the watermark saying the page is expanded.
 * The two transactions touch different object stores, so IndexedDB runs them side by side.
 */

export const STAGING_STORES = ['staged_pages', 'staged_rows', 'sync_cursor', 'meta'] as const;
const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

/**
 * Rows per staged_rows value (keyed [seq, chunk]): ~28 KB, under the 64 KB beyond which Chromium stores a value as a
 * blob, and a search showing one row reads and copies these 100 instead of the page's 2000. Staging puts 20 values
 * instead of one, in the same transaction.
 */
export const STAGED_CHUNK_ROWS = 100;

function chunkKey(seq: number, chunk: number): [number, number] {
  return [seq, chunk];
}

function packedKey(seq: number): [number, 'packed'] {
  return [seq, 'packed'];
}

/**
 * Deletes the staged rows of pages up to `seq`: their packed value and chunks, and whole-page values (number keys) of
 * older stores.
 */
function deleteStagedRowsThrough(store: IDBObjectStore, seq: number, keyRange: typeof IDBKeyRange): void {
  store.delete(keyRange.upperBound(seq));
  // Array keys sort after every number, and [] before every other array; within [seq, …], numbers (chunks) before
  // texts ('packed') before arrays.
  store.delete(keyRange.bound([], [seq, []]));
}

/** A stored packed page, checked (it comes from disk); a malformed one is an error, not a missing page. */
async function readPacked(store: IDBObjectStore, seq: number): Promise<PackedRows | undefined> {
  const value = (await requestResult(store.get(packedKey(seq)))) as StagedPackedRow | undefined;
  if (value === undefined) return undefined;
  const packed = PackedRows.fromStored(value.packed);
  if (packed === null) throw new Error(`staged page ${seq} is unreadable`);
  return packed;
}

/** A staged page's rows in page order (packed, its chunks, or a whole-page value), in the transaction of `store`. */
export async function readStagedRecords(
  store: IDBObjectStore,
  seq: number,
  keyRange: typeof IDBKeyRange,
): Promise<StoredRecord[] | undefined> {
  const packed = await readPacked(store, seq);
  if (packed !== undefined) return packed.rows<StoredRecord>();
  const chunks = (await requestResult(
    store.getAll(keyRange.bound(chunkKey(seq, 0), chunkKey(seq, Number.POSITIVE_INFINITY))),
  )) as StagedRowsRow[];
  const texts =
    chunks.length > 0
      ? chunks.flatMap((chunk) => chunk.rows)
      : ((await requestResult(store.get(seq))) as StagedRowsRow | undefined)?.rows;
  return texts?.map((text) => JSON.parse(text) as StoredRecord);
}

/** What is known in memory of a staged page not yet expanded. */
export interface StagedPage {
  seq: number;
  source: IndexSource;
  keys: Float64Array;
  expiresAt: Uint32Array;
  /** `keys` sorted, and the position in the page of each (the last one when a key repeats). */
  sortedKeys: Float64Array;
  positions: Uint32Array;
  /** Its rows in memory (packed-rows.ts), when this worker staged it and the memory cap allowed; else on disk only. */
  packed: PackedRows | null;
}

/**
 * What the staged pages' rows may take in memory (PackedRows.bytes): ~50 bytes a record, so 500,000 records fit
 * (~25 MB; the worker's heap goal is 100 MB, bench:sync). Pages staged beyond it are read from IndexedDB.
 */
export const STAGED_ROWS_MEMORY_CAP = 40_000_000;

function describeStagedPage(row: StagedPageRow, packed: PackedRows | null): StagedPage {
  const order = Array.from(row.keys, (_, i) => i);
  order.sort((a, b) => row.keys[a]! - row.keys[b]! || b - a);
  const sortedKeys: number[] = [];
  const positions: number[] = [];
  for (const position of order) {
    const key = row.keys[position]!;
    if (sortedKeys.length > 0 && sortedKeys[sortedKeys.length - 1] === key) continue; // later position came first
    sortedKeys.push(key);
    positions.push(position);
  }
  return {
    seq: row.seq,
    source: row.source,
    keys: row.keys,
    expiresAt: row.expiresAt,
    sortedKeys: Float64Array.from(sortedKeys),
    positions: Uint32Array.from(positions),
    packed,
  };
}

function findPosition(page: StagedPage, key: number): number {
  let low = 0;
  let high = page.sortedKeys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = page.sortedKeys[mid]!;
    if (value === key) return page.positions[mid]!;
    if (value < key) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * Staged pages beyond the expansion watermark, in seq order; and, while an expansion runs, the rows in memory of the
 * pages it has already put into their tables (`expanded`), so that a search during the expansion reads them from
 * memory instead of from a table the expansion is writing (an IndexedDB read waits for the write transaction in
 * progress: searches during the ~2 min expansion after a fresh sync of 500,000 waited up to ~110 ms; bench:sync).
 */
export class StagedPages {
  #pages: StagedPage[] = [];
  /** Expanded pages whose rows are still in memory, oldest first; every one is what its table now holds. */
  #expanded: StagedPage[] = [];
  #packedBytes = 0;
  readonly #memoryCap: number;

  constructor(memoryCap = STAGED_ROWS_MEMORY_CAP) {
    this.#memoryCap = memoryCap;
  }

  /**
   * Adds a page, with its rows in memory when given and under the cap (expanded pages' rows give way first, oldest
   * first: their tables hold them).
   */
  add(row: StagedPageRow, packed: PackedRows | null = null): void {
    const last = this.#pages.at(-1);
    if (last !== undefined && last.seq >= row.seq) throw new Error(`staged page ${row.seq} is out of order`);
    const usable = packed !== null && packed.length === row.keys.length;
    while (usable && this.#packedBytes + packed.bytes > this.#memoryCap && this.#expanded.length > 0) {
      this.#packedBytes -= this.#expanded.shift()!.packed?.bytes ?? 0;
    }
    const kept = usable && this.#packedBytes + packed.bytes <= this.#memoryCap ? packed : null;
    this.#packedBytes += kept?.bytes ?? 0;
    this.#pages.push(describeStagedPage(row, kept));
  }

  /**
   * Forgets pages up to `seq` (expanded into their tables). With `keepRows`, the rows in memory of those pages are
   * kept as expanded ones (until releaseExpanded); a page without them, or without `keepRows` (its table may hold other
   * values: remapped parker ids, another connection's expansion), releases every expanded page, since an older one
   * could then hold a record the table now has newer.
   */
  dropThrough(seq: number, keepRows = false): void {
    let count = 0;
    while (count < this.#pages.length && this.#pages[count]!.seq <= seq) {
      const page = this.#pages[count]!;
      if (keepRows && page.packed !== null) this.#expanded.push(page);
      else {
        this.#packedBytes -= page.packed?.bytes ?? 0;
        this.releaseExpanded();
      }
      count++;
    }
    if (count > 0) this.#pages.splice(0, count);
  }

  /** Drops the expanded pages' rows (their tables hold them): when an expansion run ends, or the tables change. */
  releaseExpanded(): void {
    for (const page of this.#expanded) this.#packedBytes -= page.packed?.bytes ?? 0;
    this.#expanded = [];
  }

  clear(): void {
    this.#pages = [];
    this.#expanded = [];
    this.#packedBytes = 0;
  }

  /** What the rows held in memory take (PackedRows.bytes). */
  get packedBytes(): number {
    return this.#packedBytes;
  }

  first(): StagedPage | undefined {
    return this.#pages[0];
  }

  get count(): number {
    return this.#pages.length;
  }

  get lastSeq(): number {
    return this.#pages.at(-1)?.seq ?? 0;
  }

  pagesOf(source: IndexSource): StagedPage[] {
    return this.#pages.filter((page) => page.source === source);
  }

  /** The newest staged page holding `key` of `source`, and the record's position in it. */
  locate(source: IndexSource, key: number): { page: StagedPage; position: number } | null {
    return newestHolding(this.#pages, source, key);
  }

  /** The record as its table holds it, from the newest expanded page still in memory holding it; else undefined. */
  expandedRow(source: IndexSource, key: number): StoredRecord | undefined {
    const found = newestHolding(this.#expanded, source, key);
    return found?.page.packed?.row<StoredRecord>(found.position);
  }
}

function newestHolding(pages: readonly StagedPage[], source: IndexSource, key: number): { page: StagedPage; position: number } | null {
  for (let i = pages.length - 1; i >= 0; i--) {
    const page = pages[i]!;
    if (page.source !== source) continue;
    const position = findPosition(page, key);
    if (position >= 0) return { page, position };
  }
  return null;
}

export interface StageResult {
  /** The generation this staging wrote, and whether the one it replaced was the one expected (else another
   * connection changed the store meanwhile). */
  generation: number;
  expectedPrevious: boolean;
  row: StagedPageRow;
}

/**
 * Stages a page and advances the cursor in one transaction, and drops staged pages already expanded (up to
 * `collectThrough`). `packed` is `PackedRows.pack(page.rows)` (the caller keeps it in memory too); null stages JSON
 * chunks. Resolves once committed.
 */
export async function stagePage(
  db: IDBDatabase,
  page: PreparedPage,
  packed: PackedRows | null,
  seq: number,
  cursor: SyncCursorRow,
  expectedGeneration: number,
  collectThrough: number,
  keyRange: typeof IDBKeyRange,
): Promise<StageResult> {
  const row: StagedPageRow = { seq, type: page.type, source: page.source, keys: page.keys, expiresAt: page.expiresAt };
  const tx = db.transaction(STAGING_STORES, 'readwrite', RELAXED);
  const done = transactionDone(tx);
  const stagedPages = tx.objectStore('staged_pages');
  const stagedRows = tx.objectStore('staged_rows');
  if (collectThrough > 0) {
    stagedPages.delete(keyRange.upperBound(collectThrough));
    deleteStagedRowsThrough(stagedRows, collectThrough, keyRange);
  }
  // add, not put: a seq taken by another connection fails the page instead of overwriting one.
  if (packed !== null) {
    // One value of typed arrays (~100 KB a page): no JSON.stringify of 2000 rows (~10 ms of the worker's thread, which
    // a search arriving then waited for) and a commit a fifth of the chunks' size.
    stagedRows.add({ seq: packedKey(seq), packed: packed.toStored() } satisfies StagedPackedRow);
  } else {
    const rows = page.rows.map((record) => JSON.stringify(record));
    const chunks = Math.max(1, Math.ceil(rows.length / STAGED_CHUNK_ROWS));
    for (let chunk = 0; chunk < chunks; chunk++) {
      const from = chunk * STAGED_CHUNK_ROWS;
      stagedRows.add({ seq: chunkKey(seq, chunk), rows: rows.slice(from, from + STAGED_CHUNK_ROWS) } satisfies StagedRowsRow);
    }
  }
  stagedPages.add(row);
  tx.objectStore('sync_cursor').put(cursor);
  let previous = 0;
  try {
    previous = await readGeneration(tx);
    tx.objectStore('meta').put({ key: 'generation', value: previous + 1 });
  } catch (error) {
    // The transaction failed (a seq taken, quota…): report its own error rather than the request's.
    abortQuietly(tx);
    await done;
    throw error;
  }
  await done;
  return { generation: previous + 1, expectedPrevious: previous === expectedGeneration, row };
}

/** Deletes staged pages up to `seq` (already expanded). */
export async function collectStagedPages(db: IDBDatabase, seq: number, keyRange: typeof IDBKeyRange): Promise<void> {
  if (seq <= 0) return;
  const tx = db.transaction(['staged_pages', 'staged_rows'], 'readwrite', RELAXED);
  const done = transactionDone(tx);
  tx.objectStore('staged_pages').delete(keyRange.upperBound(seq));
  deleteStagedRowsThrough(tx.objectStore('staged_rows'), seq, keyRange);
  await done;
}

/**
 * For a search: the rows at `positions` of each staged page wanted, all pages read in one transaction, and only the
 * chunks holding them read and only those rows parsed (a page holds 2000 JSON strings; reading and parsing all of
 * them for the few shown cost a search tens of ms per page while staged pages waited to be expanded). A page
 * expanded and collected meanwhile maps to undefined.
 */
export async function readStagedPositions(
  db: IDBDatabase,
  wanted: ReadonlyMap<number, readonly number[]>,
): Promise<Map<number, (StoredRecord | undefined)[] | undefined>> {
  const tx = db.transaction('staged_rows', 'readonly');
  const store = tx.objectStore('staged_rows');
  const found = new Map<number, (StoredRecord | undefined)[] | undefined>();
  const parse = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as StoredRecord));
  await Promise.all(
    [...wanted].map(async ([seq, positions]) => {
      const packed = await readPacked(store, seq);
      if (packed !== undefined) {
        found.set(seq, positions.map((position) => packed.row<StoredRecord>(position)));
        return;
      }
      const chunks = [...new Set(positions.map((position) => Math.floor(position / STAGED_CHUNK_ROWS)))];
      const values = (await Promise.all(chunks.map((chunk) => requestResult(store.get(chunkKey(seq, chunk)))))) as (
        | StagedRowsRow
        | undefined
      )[];
      if (values.every((value) => value !== undefined)) {
        const byChunk = new Map(chunks.map((chunk, i) => [chunk, values[i]!.rows]));
        const textAt = (position: number) => byChunk.get(Math.floor(position / STAGED_CHUNK_ROWS))?.[position % STAGED_CHUNK_ROWS];
        found.set(seq, positions.map((position) => parse(textAt(position))));
        return;
      }
      // A whole-page value (staged before chunks), or the page is gone.
      const whole = (await requestResult(store.get(seq))) as StagedRowsRow | undefined;
      found.set(seq, whole === undefined ? undefined : positions.map((position) => parse(whole.rows[position])));
    }),
  );
  return found;
}

export async function readStagedRows(db: IDBDatabase, seq: number, keyRange: typeof IDBKeyRange): Promise<StoredRecord[] | undefined> {
  const tx = db.transaction('staged_rows', 'readonly');
  return readStagedRecords(tx.objectStore('staged_rows'), seq, keyRange);
}

/** The expansion watermark as stored: the last staged page in its table (whichever connection expanded it). */
export async function readWatermark(db: IDBDatabase): Promise<number> {
  const tx = db.transaction('expansion', 'readonly');
  return ((await requestResult(tx.objectStore('expansion').get('watermark'))) as ExpansionRow | undefined)?.seq ?? 0;
}

/** The watermark moved under us: another connection expanded pages, or the store was cleared. */
export class StagingStateChanged extends Error {
  override readonly name = 'StagingStateChanged';
}

export interface ExpandResult {
  /** Monthly parkers only: rows whose (location, parker, plate) was held under another id were put there instead;
   * the plate index and the parker ids no longer match the table. */
  remapped: boolean;
}

/**
 * Puts a slice of a staged page's rows into their table, in one transaction; the slice that ends the page
 * (`endsPage`) also moves the watermark to its seq. The watermark must still be `previousWatermark`, so a page is expanded once
 * and in order (another connection that expanded it meanwhile fails the slice with StagingStateChanged). The page stays
 * staged until its last slice commits, and staged rows are read before table rows, so a search never sees a page half
 * expanded; a page begun again (after a pause or a failure) puts the same rows again.
 */
export async function expandStagedSlice(
  db: IDBDatabase,
  page: StagedPage,
  slice: readonly StoredRecord[],
  endsPage: boolean,
  previousWatermark: number,
  resolveParkerIds: boolean,
): Promise<ExpandResult> {
  const tx = db.transaction([page.source, 'expansion'], 'readwrite', RELAXED);
  const done = transactionDone(tx);
  const table = tx.objectStore(page.source);
  const expansion = tx.objectStore('expansion');
  let remapped = false;
  const watermark = expansion.get('watermark');
  watermark.onsuccess = () => {
    const current = (watermark.result as ExpansionRow | undefined)?.seq ?? 0;
    if (current !== previousWatermark) {
      abortQuietly(tx);
      return;
    }
    if (endsPage) expansion.put({ id: 'watermark', seq: page.seq } satisfies ExpansionRow);
  };
  if (resolveParkerIds) {
    // Slow path after a unique-index conflict: put each parker under the id its (location, parker, plate) holds.
    const unique = table.index(MONTHLY_PARKER_UNIQUE_INDEX);
    for (const row of slice as readonly StoredMonthlyParker[]) {
      const lookup = unique.getKey([row.location_id, row.parkerid, row.license_plate]);
      lookup.onsuccess = () => {
        const held = lookup.result as number | undefined;
        if (held !== undefined && held !== row.id) {
          remapped = true;
          table.put({ ...row, id: held });
        } else {
          table.put(row);
        }
      };
    }
  } else {
    for (const row of slice) table.put(row);
  }
  try {
    await done;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError' && tx.error === null) {
      throw new StagingStateChanged('Another connection expanded staged pages meanwhile');
    }
    throw error;
  }
  return { remapped };
}
