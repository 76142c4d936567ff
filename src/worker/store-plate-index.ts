import { INDEX_SOURCES, PlateIndex, type PlateIndexEntry } from './plate-index';
import {
  MONTHLY_PARKER_UNIQUE_INDEX,
  readGeneration,
  type ExpansionRow,
  type PlateIndexPieceRow,
  type PlateIndexRow,
  type StagedPageRow,
  type StoredMonthlyParker,
  type StoredRecord,
} from './store';
import { abortQuietly, requestResult, transactionDone } from './store-idb';
import { indexEntry, MonthlyParkerIds, recordKey } from './store-records';
import { joinSnapshot, splitSnapshot } from './snapshot-pieces';
import { readStagedRecords, type StagedPage } from './store-staging';

/**
 * The plate index's lifecycle (docs/enforcement-sync.md "Snapshot and generation"): the store's content is
 * numbered by a generation; a snapshot of the index is saved with the generation it reflects, and is used at open
 * only when the store is still at that generation. Otherwise the index is rebuilt from the tables and the staged
 * pages, which always hold the truth.
 */

export interface StoreState {
  index: PlateIndex;
  /** The generation `index` reflects. */
  generation: number;
  watermark: number;
  /** Staged pages beyond the watermark, in seq order. */
  staged: StagedPageRow[];
  /** How the index was obtained. */
  origin: 'snapshot' | 'rebuilt';
}

const REBUILD_BATCH = 5000;

/** Every piece of the snapshot: keys ['piece', n] (an array key sorts after the text 'current'). */
const PIECES = (keyRange: typeof IDBKeyRange) => keyRange.bound(['piece'], ['piece', []]);
const UPSERT_BATCH = 50_000;

async function readWatermark(tx: IDBTransaction): Promise<number> {
  const row = (await requestResult(tx.objectStore('expansion').get('watermark'))) as ExpansionRow | undefined;
  return row?.seq ?? 0;
}

async function readStagedPages(tx: IDBTransaction, watermark: number, keyRange: typeof IDBKeyRange): Promise<StagedPageRow[]> {
  const request = tx.objectStore('staged_pages').getAll(keyRange.lowerBound(watermark, true));
  return (await requestResult(request)) as StagedPageRow[];
}

/** Opening: the saved snapshot when it matches the store's generation (one get), otherwise a rebuild. */
export async function loadStoreState(
  db: IDBDatabase,
  keyRange: typeof IDBKeyRange,
  log: (message: string, error?: unknown) => void,
): Promise<StoreState> {
  const tx = db.transaction(['meta', 'plate_index', 'expansion', 'staged_pages'], 'readonly');
  const done = transactionDone(tx);
  const generation = await readGeneration(tx);
  const head = (await requestResult(tx.objectStore('plate_index').get('current'))) as PlateIndexRow | undefined;
  // The snapshot's pieces are read only when it is of the store's generation.
  const saved = head?.generation === generation ? head : undefined;
  const pieces = saved ? ((await requestResult(tx.objectStore('plate_index').getAll(PIECES(keyRange)))) as PlateIndexPieceRow[]) : [];
  const watermark = await readWatermark(tx);
  const staged = await readStagedPages(tx, watermark, keyRange);
  await done;
  if (saved !== undefined) {
    try {
      return { index: PlateIndex.fromSnapshot(joinSnapshot(saved, pieces)), generation, watermark, staged, origin: 'snapshot' };
    } catch (error) {
      log('The saved plate index could not be used; rebuilding it from the store', error);
    }
  }
  return rebuildStoreState(db, keyRange);
}

/**
 * Builds the index from the tables and then the staged pages (newer, so they win), all read in one readonly
 * transaction so that they agree with the generation read with them.
 */
export async function rebuildStoreState(db: IDBDatabase, keyRange: typeof IDBKeyRange): Promise<StoreState> {
  const tx = db.transaction([...INDEX_SOURCES, 'meta', 'expansion', 'staged_pages', 'staged_rows'], 'readonly');
  const done = transactionDone(tx);
  try {
    const generation = await readGeneration(tx);
    const watermark = await readWatermark(tx);
    const index = new PlateIndex();
    for (const source of INDEX_SOURCES) {
      const store = tx.objectStore(source);
      let entries: PlateIndexEntry[] = [];
      let after: number | null = null;
      for (;;) {
        const range = after === null ? null : keyRange.lowerBound(after, true);
        const rows = (await requestResult(store.getAll(range, REBUILD_BATCH))) as StoredRecord[];
        for (const row of rows) entries.push(indexEntry(source, row));
        if (entries.length >= UPSERT_BATCH) {
          index.upsert(entries);
          entries = [];
        }
        const last = rows.at(-1);
        if (last === undefined || rows.length < REBUILD_BATCH) break;
        after = recordKey(source, last);
      }
      if (entries.length > 0) index.upsert(entries);
    }
    const staged = await readStagedPages(tx, watermark, keyRange);
    for (const page of staged) {
      const rows = await readStagedRecords(tx.objectStore('staged_rows'), page.seq, keyRange);
      if (rows === undefined) throw new Error(`staged page ${page.seq} has no rows`);
      index.upsert(rows.map((row) => indexEntry(page.source, row)));
    }
    await done;
    return { index, generation, watermark, staged, origin: 'rebuilt' };
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
}

/**
 * Saves the index as of `generation`; does nothing (false) when the store has moved on since. One transaction, its
 * pieces put one request after another (snapshot-pieces.ts): the worker's thread is free for searches between them.
 */
export async function savePlateIndexSnapshot(
  db: IDBDatabase,
  index: PlateIndex,
  generation: number,
  keyRange: typeof IDBKeyRange,
): Promise<boolean> {
  const tx = db.transaction(['meta', 'plate_index'], 'readwrite', { durability: 'relaxed' });
  const done = transactionDone(tx);
  try {
    if ((await readGeneration(tx)) !== generation) {
      abortQuietly(tx);
      return false;
    }
    const store = tx.objectStore('plate_index');
    const split = splitSnapshot(index.toSnapshot());
    store.delete(PIECES(keyRange));
    for (const piece of split.pieces()) await requestResult(store.put(piece));
    store.put({ ...split.head, generation } satisfies PlateIndexRow);
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
  await done;
  return true;
}

/** Every monthly parker id held, in the table (keys of its unique index only) and in staged pages. */
export async function loadMonthlyParkerIds(
  db: IDBDatabase,
  staged: readonly StagedPage[],
  keyRange: typeof IDBKeyRange,
): Promise<MonthlyParkerIds> {
  const ids = new MonthlyParkerIds();
  const tx = db.transaction(['monthly_parkers', 'staged_rows'], 'readonly');
  const done = transactionDone(tx);
  await new Promise<void>((resolve, reject) => {
    const request = tx.objectStore('monthly_parkers').index(MONTHLY_PARKER_UNIQUE_INDEX).openKeyCursor();
    request.onerror = () => reject(request.error ?? new Error('Could not read monthly parkers'));
    request.onsuccess = () => {
      const cursor = request.result;
      if (cursor === null) return resolve();
      const [locationId, parkerId, plate] = cursor.key as [number, number, string];
      ids.hold({ location_id: locationId, parkerid: parkerId, license_plate: plate }, cursor.primaryKey as number);
      cursor.continue();
    };
  });
  for (const page of staged) {
    if (page.source !== 'monthly_parkers') continue;
    for (const row of ((await readStagedRecords(tx.objectStore('staged_rows'), page.seq, keyRange)) ?? []) as StoredMonthlyParker[]) {
      ids.hold(row, row.id);
    }
  }
  await done;
  return ids;
}
