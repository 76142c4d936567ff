import { describe, expect, it } from 'vitest';
import { saveCitation, waitingCount } from '../api/citation-outbox/outbox';
import { OutboxDatabase } from '../api/citation-outbox/outbox-db';
import { freshIndexedDb } from '../../test/fixtures/fake-enforcement-server';
import { createEnforcementApi } from './enforcement-api';
import { STORE_NAME } from './store';

/**
 * Spec §8 deletes and rebuilds an enforcement store of any version other than 2.7; the citation outbox is another
 * database, so citations not yet uploaded survive it (decision 0097), and the page learns that a rebuild happened.
 */
const OFFICER = 'officer@example.com';
const VALUES = {
  location_id: 1,
  license_plate: 'KEEP1',
  issued_at: '2026-03-02T14:55:00Z',
  violation: 'no_payment',
  fine_cents: 5000,
  notes: '',
  verdict: { headline: 'NO RECORD', detail: '' },
};

describe('a store rebuilt for another version', () => {
  it('keeps the outbox’s unsent citations and says it rebuilt', async () => {
    const factory = freshIndexedDb();
    // A store of version 2.6 (IndexedDB 26), as an older console left it.
    await new Promise<void>((resolve, reject) => {
      const request = factory.indexedDB.open(STORE_NAME, 26);
      request.onupgradeneeded = () => request.result.createObjectStore('transactions', { keyPath: 'transaction_id' });
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const outbox = new OutboxDatabase({ indexedDB: factory.indexedDB, IDBKeyRange: factory.IDBKeyRange });
    await saveCitation(outbox, OFFICER, VALUES, [{ content_type: 'image/jpeg', bytes: new Uint8Array([0xff, 0xd8, 0xff, 1]).buffer }]);
    outbox.close();

    const api = createEnforcementApi({ indexedDB: factory, storage: null, locks: null, log: () => undefined });
    const status = await api.open();
    expect(status).toMatchObject({ available: true, empty: true, rebuilt: true });
    await api.close();

    const after = new OutboxDatabase({ indexedDB: factory.indexedDB, IDBKeyRange: factory.IDBKeyRange });
    expect(await waitingCount(after, OFFICER)).toBe(1);
    expect(await after.photos.count()).toBe(1);
    after.close();

    // The next opening finds version 2.7: no rebuild, nothing to tell.
    const again = createEnforcementApi({ indexedDB: factory, storage: null, locks: null, log: () => undefined });
    expect((await again.open()).rebuilt).toBe(false);
    await again.close();
  });
});
