import { describe, expect, it } from 'vitest';
import { openEnforcementStore, type SyncCursorRow, type StoredRecord } from '../../../src/worker/store';
import { readStagedTexts, stagePage, STAGED_CHUNK_ROWS, StagingStateChanged } from '../../../src/worker/store-staging';
import type { PreparedPage } from '../../../src/worker/store-records';
import { requestResult } from '../../../src/worker/store-idb';
import { freshIndexedDb } from './fake-enforcement-server';

// Staging writes a page's rows in several small transactions, then the page row and the cursor in one more
// (store-staging.ts): a search's read of staged rows waits for one small write, not the whole page.

function pageOf(count: number, from = 1): PreparedPage {
  const rows = Array.from({ length: count }, (_, i) => ({ transaction_id: from + i, license_plate: `P${from + i}`, sync_time: 1 }) as unknown as StoredRecord);
  return {
    type: 'valid',
    source: 'transactions',
    rows,
    keys: Float64Array.from(rows, (_, i) => from + i),
    expiresAt: Uint32Array.from(rows, () => 2_000_000_000),
  };
}
const cursor: SyncCursorRow = { type: 'valid', updated_at: null, offset: 0, last_identity: null, locationIds: [1], complete: false };

async function openIdb() {
  const factory = freshIndexedDb();
  const { store } = await openEnforcementStore(factory, `staging-${Math.random()}`);
  return { db: store.backendDB(), keyRange: factory.IDBKeyRange, store };
}

async function stagedTexts(db: IDBDatabase, seq: number, keyRange: typeof IDBKeyRange) {
  const tx = db.transaction('staged_rows', 'readonly');
  return readStagedTexts(tx.objectStore('staged_rows'), seq, keyRange);
}

describe('staging a page in small transactions', () => {
  it('writes over the chunks an attempt left when it died before its page row, so the page holds its own rows only', async () => {
    const { db, keyRange, store } = await openIdb();
    // A dead attempt at seq 1 with a longer page: 30 chunks, no staged_pages row.
    const tx = db.transaction('staged_rows', 'readwrite');
    for (let chunk = 0; chunk < 30; chunk++) tx.objectStore('staged_rows').put({ seq: [1, chunk], rows: ['{"stale":true}'] });
    await new Promise((resolve) => (tx.oncomplete = resolve));

    const page = pageOf(2 * STAGED_CHUNK_ROWS + 7);
    const result = await stagePage(db, page, 1, cursor, 0, 0, keyRange);
    expect(result.generation).toBe(1);
    const texts = await stagedTexts(db, 1, keyRange);
    expect(texts?.map((text) => JSON.parse(text).transaction_id)).toEqual(page.rows.map((row) => (row as { transaction_id: number }).transaction_id));
    const saved = await requestResult(db.transaction('sync_cursor', 'readonly').objectStore('sync_cursor').get('valid'));
    expect(saved).toEqual(cursor);
    store.close();
  });

  it('fails with StagingStateChanged on a seq another connection staged, leaving that page as it was', async () => {
    const { db, keyRange, store } = await openIdb();
    const theirs = pageOf(150, 1);
    await stagePage(db, theirs, 1, cursor, 0, 0, keyRange);
    const before = await stagedTexts(db, 1, keyRange);
    let staged = 0;
    await expect(
      stagePage(db, pageOf(150, 1000), 1, cursor, 1, 0, keyRange, async () => {
        staged++;
      }),
    ).rejects.toBeInstanceOf(StagingStateChanged);
    expect(staged).toBe(1);
    expect(await stagedTexts(db, 1, keyRange)).toEqual(before);
    store.close();
  });

  it('lets queued work run before each write of rows', async () => {
    const { db, keyRange, store } = await openIdb();
    const writes: number[] = [];
    const page = pageOf(12 * STAGED_CHUNK_ROWS);
    await stagePage(db, page, 1, cursor, 0, 0, keyRange, async () => {
      writes.push(writes.length);
    });
    // 12 chunks, five to a transaction.
    expect(writes).toHaveLength(3);
    expect((await stagedTexts(db, 1, keyRange))?.length).toBe(page.rows.length);
    store.close();
  });
});
