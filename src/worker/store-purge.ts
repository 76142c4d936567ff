import { EXPIRY_FIELD, PURGED_SOURCES, readGeneration } from './store';
import { abortQuietly, requestResult, transactionDone } from './store-idb';

/**
 * One short read-write transaction of a purge (spec §9): deletes up to `maxRows` rows of `source` whose expiry is
 * before `cutoffSeconds` and at least `fromExpiry` (their keys read from the expiry index in one request, then one
 * delete each) and bumps the store generation. The caller sizes `maxRows` from how long the last chunk took
 * (LocalStore.purge): a search waits for the transaction in progress (IndexedDB runs a read of the same table after
 * it), and a row costs ~0.1–0.2 ms on a quiet 2-vCPU machine but several times that on a slow phone or a loaded
 * machine. Raw IndexedDB rather than Dexie. Not a key cursor deleting as it walks: that ran into transactions of
 * 300 ms and more now and then (bench:sync).
 *
 * `fromExpiry` is the previous chunk's `lastExpiry`: each chunk reads the index from where the last one stopped, not
 * from its start, where LevelDB keeps the rows just deleted as tombstones until it compacts. Read from the start, every
 * chunk stepped over all of them: on Chromium 150 the purge of 137,689 rows took 130 s in 11,135 chunks of ~12 rows.
 */

export interface PurgeChunkResult {
  deleted: number;
  /** The generation replaced (meaningful when deleted > 0). */
  previousGeneration: number;
  /** The expiry of the last row deleted: where the next chunk starts (rows of that expiry may remain). */
  lastExpiry: number | null;
  /**
   * Transaction created → its first read (the keys) answered, ms: time spent waiting for the store before deleting
   * anything (bench:sync reports it for the longest transaction).
   */
  firstReadMs: number;
}

const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

export async function purgeChunk(
  db: IDBDatabase,
  source: (typeof PURGED_SOURCES)[number],
  cutoffSeconds: number,
  keyRange: typeof IDBKeyRange,
  maxRows: number,
  fromExpiry: number | null = null,
): Promise<PurgeChunkResult> {
  const created = performance.now();
  const tx = db.transaction([source, 'meta'], 'readwrite', RELAXED);
  const done = transactionDone(tx);
  const store = tx.objectStore(source);
  let deleted = 0;
  let previousGeneration = 0;
  let lastExpiry: number | null = null;
  let firstReadMs = 0;
  try {
    const range = fromExpiry === null ? keyRange.upperBound(cutoffSeconds, true) : keyRange.bound(fromExpiry, cutoffSeconds, false, true);
    const keys = await requestResult(store.index(EXPIRY_FIELD[source]).getAllKeys(range, maxRows));
    firstReadMs = performance.now() - created;
    if (keys.length > 0) {
      const last = (await requestResult(store.get(keys[keys.length - 1]!))) as Record<string, unknown> | undefined;
      const expiry = last?.[EXPIRY_FIELD[source]];
      lastExpiry = typeof expiry === 'number' ? expiry : null;
    }
    for (const key of keys) store.delete(key);
    deleted = keys.length;
    if (deleted > 0) {
      previousGeneration = await readGeneration(tx);
      tx.objectStore('meta').put({ key: 'generation', value: previousGeneration + 1 });
    }
  } catch (error) {
    abortQuietly(tx);
    await done.catch(() => undefined);
    throw error;
  }
  await done;
  return { deleted, previousGeneration, lastExpiry, firstReadMs };
}
