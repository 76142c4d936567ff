import { EXPIRY_FIELD, PURGED_SOURCES, readGeneration } from './store';
import { abortQuietly, requestResult, transactionDone } from './store-idb';

/**
 * One short read-write transaction of a purge (spec §9): deletes up to `maxRows` rows of `source` whose expiry is
 * before `cutoffSeconds` (their keys read from the expiry index in one request, then one delete each) and bumps the
 * store generation. The caller sizes `maxRows` from how long the last chunk took (LocalStore.purge): a search waits
 * for the transaction in progress (IndexedDB runs a read of the same table after it), and a row costs ~0.1–0.2 ms on a
 * quiet 2-vCPU machine but several times that on a slow phone or a loaded machine. Raw IndexedDB rather than Dexie.
 * Not a key cursor deleting as it walks: that ran into transactions of 300 ms and more now and then (bench:sync).
 */

export interface PurgeChunkResult {
  deleted: number;
  /** The generation replaced (meaningful when deleted > 0). */
  previousGeneration: number;
}

const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

export async function purgeChunk(
  db: IDBDatabase,
  source: (typeof PURGED_SOURCES)[number],
  cutoffSeconds: number,
  keyRange: typeof IDBKeyRange,
  maxRows: number,
): Promise<PurgeChunkResult> {
  const tx = db.transaction([source, 'meta'], 'readwrite', RELAXED);
  const done = transactionDone(tx);
  const store = tx.objectStore(source);
  let deleted = 0;
  let previousGeneration = 0;
  try {
    const keys = await requestResult(store.index(EXPIRY_FIELD[source]).getAllKeys(keyRange.upperBound(cutoffSeconds, true), maxRows));
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
  return { deleted, previousGeneration };
}
