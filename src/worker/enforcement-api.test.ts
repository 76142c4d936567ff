import { describe, expect, it, vi } from 'vitest';
import { PURGE_AFTER_SECONDS, SYNC_PAGE_SIZE, SYNC_TYPES } from '../contract/enforcement';
import { createEnforcementApi } from './enforcement-api';
import { PURGE_CHUNK, SLOW_PURGE_TRANSACTION_MS } from './store-local';
import { PackedRows } from './packed-rows';
import { STAGED_CHUNK_ROWS } from './store-staging';
import type { SyncProgress } from './enforcement-worker-api';
import { EnforcementStore, STORE_NAME, STORE_SCHEMA, type StoredBooking, type StoredTransaction } from './store';
import { API_BASE, auth, freshIndexedDb } from '../../test/fixtures/fake-enforcement-server';
import {
  abortLiveTransactions,
  expectedSource,
  holdStores,
  NOW,
  openStoreConnection,
  NOW_S,
  readStore,
  setTransactionHook,
  setup,
  storedSource,
  until,
} from '../../test/fixtures/worker-test-kit';

const DAY = 86_400;

describe('opening the store', () => {
  it('creates lpa-enforcement at IndexedDB version 27 with the spec tables, empty', async () => {
    const { api, factory } = setup();
    const status = await api.open();
    expect(status).toMatchObject({ available: true, reason: null, empty: true });
    expect(status.types.map((t) => [t.type, t.lastSync, t.totalRecords, t.latestUpdatedAt])).toEqual([
      ['valid', null, 0, null],
      ['expired', null, 0, null],
      ['spothero', null, 0, null],
      ['parkwhiz', null, 0, null],
      ['monthly_parkers', null, 0, null],
    ]);
    const db = await openStoreConnection(factory);
    expect(db.version).toBe(27);
    expect([...db.objectStoreNames].sort()).toEqual(Object.keys(STORE_SCHEMA).sort());
    const tx = db.transaction(['transactions', 'monthly_parkers', 'spothero'], 'readonly');
    expect(tx.objectStore('transactions').keyPath).toBe('transaction_id');
    expect([...tx.objectStore('transactions').indexNames]).toEqual(['expiry_date_time_unix']);
    expect(tx.objectStore('spothero').keyPath).toBe('id');
    const parkers = tx.objectStore('monthly_parkers');
    expect(parkers.autoIncrement).toBe(true);
    expect(parkers.index('[location_id+parkerid+license_plate]').unique).toBe(true);
    db.close();
  });

  it.each([26, 30])('deletes a store of IndexedDB version %i and creates it afresh at 27', async (version) => {
    const factory = freshIndexedDb();
    await new Promise<void>((resolve, reject) => {
      const request = factory.indexedDB.open(STORE_NAME, version);
      request.onupgradeneeded = () => {
        const junk = request.result.createObjectStore('transactions', { keyPath: 'transaction_id' });
        junk.add({ transaction_id: 1, license_plate: 'OLD1', location_id: 1 });
        request.result.createObjectStore('junk').add('x', 'y');
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const logs: string[] = [];
    const api = createEnforcementApi({ indexedDB: factory, storage: null, locks: null, log: (m) => logs.push(m) });
    const status = await api.open();
    expect(status.available).toBe(true);
    expect(status.empty).toBe(true);
    expect(logs.join('\n')).toMatch(/deleted and created afresh/);
    const tables = await readStore(factory);
    expect(tables.transactions).toEqual([]);
    expect(Object.keys(tables)).not.toContain('junk');
    const search = await api.search({ text: 'OLD', now: NOW });
    expect(search.valid.total + search.expired.total).toBe(0);
    await api.close();
    const db = await openStoreConnection(factory);
    expect(db.version).toBe(27);
    expect(db.objectStoreNames.contains('junk')).toBe(false);
    db.close();
  });

  it('keeps a store already at 2.7', async () => {
    const { api, server, restart, sync } = setup();
    server.transaction({ license_plate: 'KEEP1' });
    await sync('valid');
    await api.close();
    const again = restart();
    expect((await again.search({ text: 'keep', now: NOW })).valid.total).toBe(1);
  });
});

describe('without IndexedDB (spec §8)', () => {
  it('stays usable: unavailable with a reason, empty results, failed syncs', async () => {
    const api = createEnforcementApi({ indexedDB: null, storage: null, locks: null });
    const status = await api.open();
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(/no IndexedDB/);
    expect(status.empty).toBe(true);
    const search = await api.search({ text: 'ABC', now: NOW });
    expect(Object.values(search).every((c) => c.total === 0 && c.rows.length === 0)).toBe(true);
    const result = await api.syncType({ type: 'valid', apiBase: API_BASE, locationIds: [1], now: NOW }, auth(), () => {});
    expect(result).toEqual({ outcome: 'failed', pages: 0, records: 0, message: status.reason, sessionError: null });
    expect(await api.purge(NOW)).toEqual({ purged: 0 });
    await expect(api.clear()).resolves.toBeUndefined();
  });

  it('reports an IndexedDB that refuses to open (e.g. a SecurityError) in words', async () => {
    const { IDBKeyRange } = freshIndexedDb();
    const refusing = {
      open: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      deleteDatabase: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    } as unknown as IDBFactory;
    const api = createEnforcementApi({ indexedDB: { indexedDB: refusing, IDBKeyRange }, storage: null, locks: null });
    const status = await api.open();
    expect(status.available).toBe(false);
    expect(status.reason).toBe('The local store could not be opened: The operation is insecure.');
    expect((await api.search({ text: 'A', now: NOW })).valid.rows).toEqual([]);
    const result = await api.syncType({ type: 'valid', apiBase: API_BASE, locationIds: [1], now: NOW }, auth(), () => {});
    expect(result).toMatchObject({ outcome: 'failed', message: status.reason });
  });
});

describe('syncing one type', () => {
  it('pages through the type from a fresh cursor, stores every record once, with sync_time', async () => {
    const { server, sync, factory, api } = setup({ pageSize: 10 });
    for (let i = 0; i < 95; i++) server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 1000 + i });
    const progress: SyncProgress[] = [];
    const result = await sync('valid', { onProgress: (p) => progress.push(p) });
    expect(result).toEqual({ outcome: 'done', pages: 10, records: 95, stoppedBy: 'shortPage' });
    expect(progress.at(-1)).toEqual({ type: 'valid', pagesDone: 10, recordsDone: 95 });
    expect(progress).toHaveLength(10);
    const requests = server.calls.map((c) => c.request);
    expect(requests[0]).toEqual({ type: 'valid', locationId: [1], limit: 10, offset: 0 });
    expect(requests[1]).toEqual({ type: 'valid', locationId: [1], limit: 10, updated_at: (NOW_S - 1000 + 9) * 1000, offset: 1 });
    expect(server.calls[0]!.url).toBe(`${API_BASE}/enforcement/transactions?type=valid`);
    expect(server.calls[0]!.headers.get('JwtToken')).toBe('session-token');
    await api.flush();
    const tables = await readStore(factory);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1]));
    expect((tables.transactions as StoredTransaction[]).every((row) => row.sync_time === NOW)).toBe(true);
  });

  it('neither loses nor doubles records that share an updated_at across page boundaries', async () => {
    const { server, sync, factory, api } = setup();
    const seconds = [NOW_S - 300, NOW_S - 200, NOW_S - 100];
    for (let i = 0; i < 5000; i++) {
      server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: seconds[i % 3]!, location_id: 1 + (i % 2) });
    }
    const result = await sync('valid', { locationIds: [1, 2] });
    expect(result).toEqual({ outcome: 'done', pages: 3, records: 5000, stoppedBy: 'shortPage' });
    expect(server.calls.map((c) => [c.request.updated_at, c.request.offset])).toEqual([
      [undefined, 0],
      [seconds[1]! * 1000, 2000 - 1667],
      [seconds[2]! * 1000, 4000 - 3334],
    ]);
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toHaveLength(5000);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1, 2]));
    expect(await api.status()).toMatchObject({ types: [{ type: 'valid', totalRecords: 5000, latestUpdatedAt: seconds[2] }, {}, {}, {}, {}] });
    // Nothing new: the next sync asks from the end of the last run and gets an empty page.
    expect(await sync('valid', { locationIds: [1, 2] })).toEqual({ outcome: 'done', pages: 0, records: 0, stoppedBy: 'emptyPage' });
    expect(server.calls.at(-1)!.request).toMatchObject({ updated_at: seconds[2]! * 1000, offset: 1665 });
    expect(SYNC_PAGE_SIZE).toBe(2000);
  });

  it('fetches the run of a second again when the server changed it between syncs', async () => {
    const { server, sync, api, factory } = setup({ pageSize: 10 });
    const run = Array.from({ length: 5 }, () => server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100 }));
    expect(await sync('valid')).toMatchObject({ outcome: 'done', records: 5 });
    // One of the run is updated (it moves to a later second) and a new record arrives: the run now has 4 records,
    // so offset 5 would skip the new one.
    run[1]!.updated_at = NOW_S - 10;
    run[1]!.license_plate = 'MOVED1';
    const added = server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 50, license_plate: 'ADDED1' });
    expect(await sync('valid')).toMatchObject({ outcome: 'done', stoppedBy: 'shortPage' });
    expect(server.calls.slice(1).map((c) => c.request.offset)).toEqual([4, 0]);
    await api.flush();
    const tables = await readStore(factory);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1]));
    expect((tables.transactions as StoredTransaction[]).map((t) => t.license_plate)).toContain(added.license_plate);
    expect((await api.status()).types[0]).toMatchObject({ latestUpdatedAt: NOW_S - 10 });
  });

  it('stops after 50 pages, and the next sync continues where it stopped', async () => {
    const { server, sync, factory, api } = setup({ pageSize: 4 });
    for (let i = 0; i < 230; i++) server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 5000 + Math.floor(i / 3) });
    expect(await sync('valid')).toEqual({ outcome: 'done', pages: 50, records: 200, stoppedBy: 'pageCap' });
    expect(server.calls).toHaveLength(50);
    expect(await sync('valid')).toEqual({ outcome: 'done', pages: 8, records: 30, stoppedBy: 'shortPage' });
    await api.flush();
    const tables = await readStore(factory);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1]));
  });

  it('stops on an empty page after full pages', async () => {
    const { server, sync } = setup({ pageSize: 5 });
    for (let i = 0; i < 10; i++) server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100 + i });
    expect(await sync('valid')).toEqual({ outcome: 'done', pages: 2, records: 10, stoppedBy: 'emptyPage' });
    expect(server.calls).toHaveLength(3);
    expect(await sync('expired')).toEqual({ outcome: 'done', pages: 0, records: 0, stoppedBy: 'emptyPage' });
  });

  it('keeps valid and expired in transactions, each with its own cursor', async () => {
    const { server, sync, api, factory } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + 3600, updated_at: NOW_S - 50, license_plate: 'VAL1' });
    server.transaction({ expiry_date_time_unix: NOW_S - 3600, updated_at: NOW_S - 10, license_plate: 'EXP1' });
    server.transaction({ expiry_date_time_unix: NOW_S - 22 * DAY, updated_at: NOW_S - 5, license_plate: 'OLD1' });
    await sync('valid');
    await sync('expired');
    const status = await api.status();
    expect(status.empty).toBe(false);
    expect(status.types.slice(0, 2)).toEqual([
      { type: 'valid', lastSync: NOW, totalRecords: 1, latestUpdatedAt: NOW_S - 50 },
      { type: 'expired', lastSync: NOW, totalRecords: 1, latestUpdatedAt: NOW_S - 10 },
    ]);
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.sync_info).toEqual([
      { type: 'expired', last_sync: NOW, total_transactions: 1 },
      { type: 'valid', last_sync: NOW, total_transactions: 1 },
    ]);
    expect((tables.transactions as StoredTransaction[]).map((t) => t.license_plate).sort()).toEqual(['EXP1', 'VAL1']);
  });

  it('counts a record updated by a page not yet expanded once in the status totals, before and after expansion', async () => {
    const { server, sync, api } = setup();
    const record = server.transaction({ expiry_date_time_unix: NOW_S + 3600, updated_at: NOW_S - 50, license_plate: 'UPD1' });
    server.transaction({ expiry_date_time_unix: NOW_S - 3600, updated_at: NOW_S - 40, license_plate: 'EXP2' });
    await sync('valid');
    await sync('expired');
    await api.flush();
    // The server moves its expiry into the past: the record is now an expired one, staged beside its old row.
    record.expiry_date_time_unix = NOW_S - 60;
    record.updated_at = NOW_S - 20;
    expect(await sync('expired')).toMatchObject({ outcome: 'done', records: 1 });
    const totals = async () => (await api.status()).types.slice(0, 2).map((t) => [t.type, t.totalRecords]);
    expect(await totals()).toEqual([
      ['valid', 1],
      ['expired', 2],
    ]);
    expect(await sync('valid')).toMatchObject({ outcome: 'done' });
    expect(await totals()).toEqual([
      ['valid', 0],
      ['expired', 2],
    ]);
    await api.flush();
    expect(await sync('valid')).toMatchObject({ outcome: 'done' });
    expect(await totals()).toEqual([
      ['valid', 0],
      ['expired', 2],
    ]);
  });

  it('stores only the officer\u2019s locations, and bookings with their parsed expiry', async () => {
    const { server, sync, api, factory } = setup();
    server.booking('spothero', { location_id: 1, expiry: NOW_S + 100, license_plate: 'SH1' });
    server.booking('spothero', { location_id: 3, license_plate: 'SH3' });
    server.booking('parkwhiz', { location_id: 2, expiry: NOW_S - 100, license_plate: 'PW2' });
    await sync('spothero', { locationIds: [1, 2] });
    await sync('parkwhiz', { locationIds: [2, 1] });
    await api.flush();
    const tables = await readStore(factory);
    expect((tables.spothero as StoredBooking[]).map((b) => [b.license_plate, b.expiry_unix])).toEqual([['SH1', NOW_S + 100]]);
    expect((tables.parkwhiz as StoredBooking[]).map((b) => [b.license_plate, b.expiry_unix])).toEqual([['PW2', NOW_S - 100]]);
    expect(server.calls.at(-1)!.request.locationId).toEqual([1, 2]);
  });

  it('replaces records the server changed, by key', async () => {
    const { server, sync, api, factory } = setup();
    const record = server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100, license_plate: 'OLD123' });
    await sync('valid');
    record.license_plate = 'NEW456';
    record.updated_at = NOW_S - 10;
    await sync('valid');
    await api.flush();
    expect((await readStore(factory)).transactions).toHaveLength(1);
    expect((await api.search({ text: 'old', now: NOW })).valid.total).toBe(0);
    expect((await api.search({ text: 'new', now: NOW })).valid.rows).toMatchObject([{ license_plate: 'NEW456' }]);
  });

  it('takes a refund with the payment the server sends again; a record cached without one reads as nothing refunded', async () => {
    const { server, sync, api } = setup();
    const record = server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100, license_plate: 'RFD123', payment_amount: 9.5 });
    await sync('valid');
    expect((await api.search({ text: 'RFD123', now: NOW })).valid.rows).toMatchObject([{ payment_amount: 9.5, refunded: false }]);
    Object.assign(record, { refunded_amount: 9.49, updated_at: NOW_S - 20 });
    await sync('valid');
    expect((await api.search({ text: 'RFD123', now: NOW })).valid.rows).toMatchObject([{ refunded: false }]);
    Object.assign(record, { refunded_amount: 9.5, updated_at: NOW_S - 10 });
    await sync('valid');
    expect((await api.search({ text: 'RFD123', now: NOW })).valid.rows).toMatchObject([{ payment_amount: 9.5, refunded: true }]);
    await api.flush();
    expect((await api.search({ text: 'RFD123', now: NOW })).valid.rows).toMatchObject([{ refunded: true }]);
  });
});

describe('monthly parkers', () => {
  it('skips the sync when the newest parker update is from today, not when it is from yesterday', async () => {
    const { server, sync } = setup();
    const startOfToday = new Date(2025, 5, 18, 0, 0, 1).getTime() / 1000;
    server.monthlyParker({ updated_at: startOfToday - 3600 });
    expect(await sync('monthly_parkers')).toMatchObject({ outcome: 'done', records: 1 });
    // Latest held is yesterday (local date): sync again.
    expect(await sync('monthly_parkers')).toMatchObject({ outcome: 'done', records: 0, stoppedBy: 'emptyPage' });
    server.monthlyParker({ updated_at: startOfToday });
    expect(await sync('monthly_parkers')).toMatchObject({ outcome: 'done' });
    const calls = server.calls.length;
    expect(await sync('monthly_parkers')).toEqual({ outcome: 'skipped', reason: 'monthlyParkersUpdatedToday' });
    expect(server.calls).toHaveLength(calls);
    // The next day it syncs again.
    expect(await sync('monthly_parkers', { now: NOW + 86_400_000 })).toMatchObject({ outcome: 'done' });
  });

  it('does not skip while the last sync stopped early, even with today\u2019s updates held', async () => {
    const { server, sync } = setup({ pageSize: 2, maxPages: 2 });
    for (let i = 0; i < 5; i++) server.monthlyParker({ updated_at: NOW_S - 60 + i });
    expect(await sync('monthly_parkers')).toMatchObject({ outcome: 'done', stoppedBy: 'pageCap', records: 4 });
    expect(await sync('monthly_parkers')).toMatchObject({ outcome: 'done', stoppedBy: 'emptyPage', records: 1 });
    expect(await sync('monthly_parkers')).toEqual({ outcome: 'skipped', reason: 'monthlyParkersUpdatedToday' });
  });

  it('replaces a re-synced parker (same location, parker and plate) instead of adding one', async () => {
    const { server, sync, api, factory } = setup();
    const parker = server.monthlyParker({ updated_at: NOW_S - 3 * DAY, license_plate: 'MP1', fname: 'Ann' });
    server.monthlyParker({ updated_at: NOW_S - 3 * DAY, license_plate: 'MP2', parkerid: parker.parkerid });
    await sync('monthly_parkers', { now: NOW - 2 * 86_400_000 });
    await api.flush();
    const before = (await readStore(factory)).monthly_parkers as { id: number; license_plate: string }[];
    parker.fname = 'Anna';
    parker.updated_at = NOW_S - DAY;
    await sync('monthly_parkers');
    await api.flush();
    const after = (await readStore(factory)).monthly_parkers as { id: number; license_plate: string; fname: string }[];
    expect(after).toHaveLength(2);
    expect(after.find((p) => p.license_plate === 'MP1')).toMatchObject({ fname: 'Anna', id: before.find((p) => p.license_plate === 'MP1')!.id });
    const rows = (await api.search({ text: 'mp1', now: NOW })).monthly_parkers.rows;
    expect(rows).toMatchObject([{ category: 'monthly_parkers', fname: 'Anna', license_plate: 'MP1' }]);
    expect(rows[0]).not.toHaveProperty('updated_at');
  });
});

describe('failures', () => {
  it('fails on a malformed record: nothing of that page is stored and the cursor stays', async () => {
    const { server, sync, api, factory } = setup({ pageSize: 3 });
    for (let i = 0; i < 7; i++) server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100 + i });
    server.fault = (call) => (call.n === 2 ? 'malformed' : null);
    const failed = await sync('valid');
    expect(failed).toMatchObject({ outcome: 'failed', pages: 1, records: 3, sessionError: null });
    expect(failed.outcome === 'failed' && failed.message).toMatch(/license_plate/);
    await api.flush();
    expect((await readStore(factory)).transactions).toHaveLength(3);
    expect((await api.status()).types[0]).toMatchObject({ lastSync: null, latestUpdatedAt: NOW_S - 98 });
    // (The failed page's successor may have been asked ahead, and cancelled: calls are counted from here.)
    const callsBefore = server.calls.length;
    expect(await sync('valid')).toMatchObject({ outcome: 'done', pages: 2, records: 4 });
    // A new sync asks one record early, to check that the last record held is still where the cursor says.
    expect(server.calls[callsBefore]!.request).toMatchObject({ updated_at: (NOW_S - 98) * 1000, offset: 0 });
  });

  it('fails on HTTP 500, a cut-off body and a network error, with the message', async () => {
    const { server, sync } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + DAY });
    server.fault = () => 'http500';
    expect(await sync('valid')).toMatchObject({ outcome: 'failed', message: 'Internal error', sessionError: null });
    server.fault = () => 'truncate';
    expect(await sync('valid')).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/not JSON/) });
    server.fault = () => 'networkError';
    expect(await sync('valid')).toMatchObject({ outcome: 'failed', message: 'Network error: could not reach the server' });
  });

  it('aborts a page that takes longer than the timeout', async () => {
    const { server, sync } = setup({ pageTimeoutMs: 50 });
    server.transaction({ expiry_date_time_unix: NOW_S + DAY });
    server.fault = () => 'hang';
    const started = Date.now();
    expect(await sync('valid')).toMatchObject({ outcome: 'failed', message: 'The server did not answer within 0.05 s', pages: 0 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('returns session errors in sessionError', async () => {
    const { server, sync, api } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + DAY });
    server.fault = () => 'tokenExpired';
    expect(await sync('valid')).toEqual({ outcome: 'failed', pages: 0, records: 0, message: 'Session expired', sessionError: 'TokenExpired' });
    const noToken = await api.syncType(
      { type: 'valid', apiBase: API_BASE, locationIds: [1], now: NOW },
      { getIdToken: async () => null, sessionToken: null },
      () => {},
    );
    expect(noToken).toEqual({ outcome: 'failed', pages: 0, records: 0, message: '', sessionError: null });
  });

  it('fails a page whose records are out of updated_at order', async () => {
    const { server, sync } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 10 });
    server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 20 });
    server.answer = (request) => server.data.transactions.slice(0, request.limit);
    expect(await sync('valid')).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/not ordered by updated_at/) });
  });
});

describe('searching', () => {
  it('finds plates case-insensitively by substring, split by expiry and source, 10 rows a page', async () => {
    const { server, sync, api } = setup();
    for (let i = 0; i < 12; i++) server.transaction({ license_plate: `AB${100 + i}`, expiry_date_time_unix: NOW_S + 60, location_id: 1 + (i % 2) });
    server.transaction({ license_plate: 'XAB9', expiry_date_time_unix: NOW_S - 60 });
    server.booking('spothero', { license_plate: 'zab7' });
    server.booking('parkwhiz', { license_plate: 'QQQ1' });
    server.monthlyParker({ license_plate: 'MAB1', updated_at: NOW_S - 3 * DAY });
    for (const type of ['valid', 'expired', 'spothero', 'parkwhiz', 'monthly_parkers'] as const) await sync(type, { locationIds: [1, 2] });
    const result = await api.search({ text: 'ab', now: NOW });
    expect(result.valid).toMatchObject({ total: 12, page: 0 });
    expect(result.valid.rows).toHaveLength(10);
    expect(result.valid.rows[0]).toMatchObject({ category: 'valid', location_id: 1, license_plate: 'AB100', expiry_date_time_unix: NOW_S + 60 });
    expect(Object.keys(result.valid.rows[0]!).sort()).toEqual(
      ['category', 'match', 'transaction_id', 'location_id', 'license_plate', 'expiry_date_time', 'expiry_date_time_unix', 'phone_number', 'payment_time', 'payment_amount', 'refunded'].sort(),
    );
    expect(result.expired.rows).toMatchObject([{ category: 'expired', license_plate: 'XAB9' }]);
    expect(result.spothero.rows).toMatchObject([{ category: 'spothero', license_plate: 'zab7' }]);
    expect(result.spothero.rows[0]).not.toHaveProperty('expiry_unix');
    expect(result.parkwhiz.total).toBe(0);
    expect(result.monthly_parkers.rows).toMatchObject([{ category: 'monthly_parkers', license_plate: 'MAB1' }]);
    const second = await api.search({ text: 'ab', now: NOW, pages: { valid: 1 } });
    expect(second.valid).toMatchObject({ total: 12, page: 1 });
    expect(second.valid.rows.map((r) => r.license_plate)).toEqual(['AB110', 'AB111']);
    const atTwo = await api.search({ text: 'AB1', now: NOW, locationId: 2 });
    expect(atTwo.valid.total).toBe(6);
    // An hour on, the valid ones have expired.
    expect((await api.search({ text: 'ab', now: NOW + 3_600_000 })).expired.total).toBe(13);
    // Similar characters: 'A8' reads like 'AB'; the worker marks which rows only matched that way.
    const misread = await api.search({ text: 'a8', now: NOW, similar: true });
    expect(misread.valid.total).toBe(12);
    expect(misread.valid.exactTotal).toBe(0);
    expect(misread.valid.rows.every((row) => row.match === 'similar')).toBe(true);
    expect((await api.search({ text: 'a8', now: NOW })).valid.total).toBe(0);
  });

  it.each([
    ['in memory', undefined],
    ['on disk only (memory cap 0)', 0],
  ])('returns rows while their page is pending, staged (%s), and in its table', { timeout: 30_000 }, async (_, stagedRowsMemoryBytes) => {
    const { server, sync, api, factory } = setup({ pageSize: 2, stagedRowsMemoryBytes });
    server.transaction({ license_plate: 'PEND1', expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 30 });
    server.transaction({ license_plate: 'PEND2', expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 20 });
    server.transaction({ license_plate: 'PEND3', expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 10 });
    await api.open();
    // Staging waits while another connection holds staged_pages: the first page is parsed but not stored.
    const releaseStaging = await holdStores(factory, ['staged_pages']);
    let progressed = 0;
    const syncing = sync('valid', { onProgress: () => progressed++ });
    await until(async () => (await api.search({ text: 'pend', now: NOW })).valid.total === 3);
    const pending = await api.search({ text: 'pend', now: NOW });
    expect(progressed).toBe(0);
    expect(pending.valid.rows.map((r) => r.license_plate)).toEqual(['PEND1', 'PEND2', 'PEND3']);
    // Expansion waits while another connection holds the transactions table: records are staged only.
    const releaseExpansion = await holdStores(factory, ['transactions']);
    await releaseStaging();
    await until(() => progressed === 2);
    const staged = await api.search({ text: 'pend', now: NOW });
    expect(staged).toEqual(pending);
    await releaseExpansion();
    expect(await syncing).toMatchObject({ outcome: 'done', records: 3 });
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toHaveLength(3);
    expect(tables.staged_pages).toHaveLength(0);
    expect(tables.staged_rows).toHaveLength(0);
    const fromTable = await api.search({ text: 'pend', now: NOW });
    expect(fromTable).toEqual(staged);
  });

  it('reads a staged row from its packed page, and from the chunks and whole pages of older versions', { timeout: 30_000 }, async () => {
    // Rows held in memory would answer without IndexedDB: the cap 0 reads them from disk, as after a restart.
    const { server, sync, api, factory } = setup({ pageSize: 250, stagedRowsMemoryBytes: 0 });
    for (let i = 0; i < 250; i++) {
      server.transaction({ license_plate: `CH${String(i).padStart(3, '0')}X`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 1000 + i });
    }
    await api.open();
    // Expansion (and the sync's count at its end) waits while another connection holds the transactions table.
    const releaseExpansion = await holdStores(factory, ['transactions']);
    let progressed = 0;
    const syncing = sync('valid', { onProgress: () => progressed++ });
    await until(() => progressed === 1);
    const db = await openStoreConnection(factory);
    const stagedRows = () =>
      new Promise<{ seq: unknown; packed?: unknown; rows?: string[] }[]>((resolve) => {
        const request = db.transaction('staged_rows', 'readonly').objectStore('staged_rows').getAll();
        request.onsuccess = () => resolve(request.result as { seq: unknown; packed?: unknown; rows?: string[] }[]);
      });
    const replaceStagedRows = (values: object[]) =>
      new Promise<void>((resolve, reject) => {
        const tx = db.transaction('staged_rows', 'readwrite');
        const store = tx.objectStore('staged_rows');
        store.clear();
        for (const value of values) store.put(value);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    // The page is one value, its rows in columns.
    const staged = await stagedRows();
    expect(staged.map((value) => value.seq)).toEqual([[1, 'packed']]);
    const records = PackedRows.fromStored(staged[0]!.packed)!.rows<StoredTransaction>();
    expect(records.map((record) => record.license_plate)).toEqual(server.data.transactions.map((record) => record.license_plate));
    const plates = async () =>
      Promise.all(['CH007X', 'CH150X', 'CH249X'].map(async (text) => (await api.search({ text, now: NOW })).valid.rows.map((r) => r.license_plate)));
    expect(await plates()).toEqual([['CH007X'], ['CH150X'], ['CH249X']]);

    // A page staged in JSON chunks keyed [seq, chunk] (the version before packing, or rows of mixed shapes) …
    const texts = records.map((record) => JSON.stringify(record));
    await replaceStagedRows([0, 1, 2].map((chunk) => ({ seq: [1, chunk], rows: texts.slice(chunk * STAGED_CHUNK_ROWS, (chunk + 1) * STAGED_CHUNK_ROWS) })));
    expect(await plates()).toEqual([['CH007X'], ['CH150X'], ['CH249X']]);
    // … and a page staged whole (one value keyed by its seq) by the version before chunks are read as well.
    await replaceStagedRows([{ seq: 1, rows: texts }]);
    expect(await plates()).toEqual([['CH007X'], ['CH150X'], ['CH249X']]);
    // A packed value that is not well formed is an error, not a missing page.
    await replaceStagedRows([{ seq: [1, 'packed'], packed: { fields: ['license_plate'], columns: [], length: 250 } }]);
    await expect(api.search({ text: 'CH007X', now: NOW })).rejects.toThrow(/staged page 1 is unreadable/);
    await replaceStagedRows([{ seq: 1, rows: texts }]);
    db.close();
    await releaseExpansion();
    expect(await syncing).toMatchObject({ outcome: 'done', records: 250 });
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toHaveLength(250);
    expect(tables.staged_rows).toHaveLength(0);
    expect(await plates()).toEqual([['CH007X'], ['CH150X'], ['CH249X']]);
  });

  it('answers from the staged rows held in memory, and expands them, with the rows on disk gone', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory } = setup({ pageSize: 250 });
    for (let i = 0; i < 250; i++) {
      server.transaction({ license_plate: `MEM${String(i).padStart(3, '0')}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 1000 + i });
    }
    await api.open();
    const releaseExpansion = await holdStores(factory, ['transactions']);
    let progressed = 0;
    const syncing = sync('valid', { onProgress: () => progressed++ });
    await until(() => progressed === 1);
    const db = await openStoreConnection(factory);
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('staged_rows', 'readwrite');
      tx.objectStore('staged_rows').clear();
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const served = server.data.transactions.find((record) => record.license_plate === 'MEM150')!;
    const found = await api.search({ text: 'MEM150', now: NOW });
    const { updated_at: _updatedAt, refunded_amount: _refundedAmount, ...shown } = served;
    expect(found.valid.rows).toEqual([{ ...shown, refunded: false, category: 'valid', match: 'exact' }]);
    await releaseExpansion();
    expect(await syncing).toMatchObject({ outcome: 'done', records: 250 });
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toHaveLength(250);
    expect(tables.transactions!.find((row) => (row as StoredTransaction).license_plate === 'MEM150')).toEqual({ ...served, sync_time: expect.any(Number) });
  });

  it('matches nothing on an empty query', async () => {
    const { server, sync, api } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + DAY });
    await sync('valid');
    expect((await api.search({ text: '  ', now: NOW })).valid.total).toBe(0);
  });
});

describe('the plate index across restarts', () => {
  it('loads the saved snapshot when it matches the store generation, and rebuilds when it does not', async () => {
    const { server, sync, api, factory, restart } = setup();
    for (let i = 0; i < 30; i++) server.transaction({ license_plate: `SNAP${i}`, expiry_date_time_unix: NOW_S + DAY });
    await sync('valid');
    await api.flush();
    const tables = await readStore(factory);
    const meta = tables.meta as { key: string; value: number }[];
    // One head row listing the arrays (the pieces, keyed ['piece', n], sort after it).
    const saved = (tables.plate_index as { id: unknown; generation: number }[]).filter((row) => row.id === 'current');
    expect(saved).toHaveLength(1);
    expect(tables.plate_index!.length).toBeGreaterThan(32); // a piece or more for each of the 4 × 8 arrays
    expect(saved[0]!.generation).toBe(meta[0]!.value);
    await api.close();

    const reopened = restart();
    expect((await reopened.search({ text: 'snap29', now: NOW })).valid.total).toBe(1);
    await reopened.close();

    // A change the snapshot does not reflect (as after a crash mid-sync): the index is rebuilt from the tables.
    const store = new EnforcementStore(factory, STORE_NAME);
    await store.transaction('rw', [store.transactions, store.meta], async () => {
      await store.transactions.put({ ...(tables.transactions![0] as StoredTransaction), transaction_id: 999_999, license_plate: 'ADDED9' });
      await store.meta.put({ key: 'generation', value: meta[0]!.value + 1 });
    });
    store.close();
    const rebuilt = restart();
    expect((await rebuilt.search({ text: 'added9', now: NOW })).valid.total).toBe(1);
    expect((await rebuilt.search({ text: 'snap', now: NOW })).valid.total).toBe(30);
  });

  it('rebuilds from tables and staged pages after the worker died with pages staged but not expanded', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory, restart } = setup({ pageSize: 5 });
    for (let i = 0; i < 12; i++) server.transaction({ license_plate: `STG${i}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100 + i });
    await api.open();
    const releaseExpansion = await holdStores(factory, ['transactions']);
    let progressed = 0;
    void sync('valid', { onProgress: () => progressed++ });
    await until(() => progressed === 3);
    // The worker dies: what has not committed is lost.
    abortLiveTransactions();
    await api.close();
    await releaseExpansion();
    expect((await readStore(factory)).staged_pages).toHaveLength(3);
    const next = restart();
    expect((await next.search({ text: 'stg', now: NOW })).valid.total).toBe(12);
    await next.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toHaveLength(12);
    expect(tables.staged_pages).toHaveLength(0);
  });
});

describe('purge (spec §9)', () => {
  it('deletes transactions and bookings whose expiry is more than 21 days old, keeps monthly parkers', async () => {
    const { server, sync, api, factory } = setup();
    const cutoff = NOW_S - PURGE_AFTER_SECONDS;
    // The fake server serves what it holds; these records were stored while still recent.
    server.nowSeconds = NOW_S - 30 * DAY;
    server.transaction({ license_plate: 'GONE1', expiry_date_time_unix: cutoff - 1 });
    server.transaction({ license_plate: 'KEEP1', expiry_date_time_unix: cutoff });
    server.transaction({ license_plate: 'KEEP2', expiry_date_time_unix: NOW_S + DAY });
    server.booking('spothero', { license_plate: 'GONE2', expiry: cutoff - 3600 });
    server.booking('spothero', { license_plate: 'KEEP3', expiry: NOW_S });
    server.booking('parkwhiz', { license_plate: 'GONE3', expiry: cutoff - 10 * DAY });
    server.monthlyParker({ license_plate: 'KEEP4', updated_at: NOW_S - 60 * DAY });
    for (const type of SYNC_TYPES) await sync(type);
    expect(await api.purge(NOW)).toEqual({ purged: 3 });
    const tables = await readStore(factory);
    const plates = ['transactions', 'spothero', 'parkwhiz', 'monthly_parkers'].flatMap((t) =>
      (tables[t] as { license_plate: string }[]).map((r) => r.license_plate),
    );
    expect(plates.sort()).toEqual(['KEEP1', 'KEEP2', 'KEEP3', 'KEEP4']);
    for (const text of ['gone1', 'gone2', 'gone3']) {
      const found = await api.search({ text, now: NOW });
      expect(Object.values(found).reduce((n, c) => n + c.total, 0)).toBe(0);
    }
    expect((await api.search({ text: 'keep', now: NOW })).expired.total).toBe(1);
    expect(await api.purge(NOW)).toEqual({ purged: 0 });
    // The snapshot saved after the purge matches the store.
    const after = await readStore(factory);
    expect((after.plate_index as { generation: number }[])[0]!.generation).toBe((after.meta as { value: number }[])[0]!.value);
  });

  it('deletes in chunks of at most PURGE_CHUNK rows, one short transaction each, and the status totals follow', async () => {
    const { server, sync, api, factory } = setup();
    const cutoff = NOW_S - PURGE_AFTER_SECONDS;
    server.nowSeconds = NOW_S - 30 * DAY;
    const gone = PURGE_CHUNK * 2 + 7;
    for (let i = 0; i < gone; i++) server.transaction({ license_plate: `OLD${i}`, expiry_date_time_unix: cutoff - 1 - i });
    server.transaction({ license_plate: 'KEEP1', expiry_date_time_unix: cutoff });
    for (const type of SYNC_TYPES) await sync(type);
    const before = await readStore(factory);
    const generationBefore = (before.meta as { value: number }[])[0]!.value;
    expect((await api.status()).types.find((t) => t.type === 'expired')!.totalRecords).toBe(gone + 1);

    expect(await api.purge(NOW)).toEqual({ purged: gone });
    const after = await readStore(factory);
    expect((after.transactions as { license_plate: string }[]).map((r) => r.license_plate)).toEqual(['KEEP1']);
    // One generation bump per transaction, not one transaction for everything: at least five chunks, as the first
    // deletes 10 rows and each at most twice the last (10 + 20 + 40 + 80 + 57 of the 2 × PURGE_CHUNK + 7; more when a
    // chunk reaches its time budget first).
    const chunks = (after.meta as { value: number }[])[0]!.value - generationBefore;
    expect(chunks).toBeGreaterThanOrEqual(5);
    const stats = await api.lastPurge();
    expect(stats.transactions).toBeGreaterThanOrEqual(chunks);
    expect(stats.longestTransactionRows).toBeGreaterThanOrEqual(10);
    expect(stats.longestTransactionRows).toBeLessThanOrEqual(PURGE_CHUNK);
    // The longest transaction's first read was answered within it, and the slow ones are counted among them all.
    expect(stats.longestTransactionFirstReadMs).toBeGreaterThan(0);
    expect(stats.longestTransactionFirstReadMs).toBeLessThanOrEqual(stats.longestTransactionMs);
    expect(stats.slowTransactions).toBeLessThanOrEqual(stats.transactions);
    expect(chunks).toBeLessThanOrEqual(gone);
    expect((await api.status()).types.find((t) => t.type === 'expired')!.totalRecords).toBe(1);
    expect((await api.search({ text: 'OLD', now: NOW })).expired.total).toBe(0);
  });
});

describe('the purge on a store that stalls', () => {
  it('counts the slow transactions and says how long the longest waited for its first read', async () => {
    const { server, sync, api } = setup();
    const cutoff = NOW_S - PURGE_AFTER_SECONDS;
    server.nowSeconds = NOW_S - 30 * DAY;
    for (let i = 0; i < 25; i++) server.transaction({ license_plate: `OLD${i}`, expiry_date_time_unix: cutoff - 1 - i });
    for (const type of SYNC_TYPES) await sync(type);
    // Every reading of the clock is 30 ms after the last: each purge transaction takes well over
    // SLOW_PURGE_TRANSACTION_MS, and its first read is answered before it ends.
    let clock = performance.now();
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 30));
    try {
      expect(await api.purge(NOW)).toEqual({ purged: 25 });
    } finally {
      spy.mockRestore();
    }
    const stats = await api.lastPurge();
    expect(stats.transactions).toBeGreaterThanOrEqual(3);
    expect(stats.slowTransactions).toBe(stats.transactions);
    expect(stats.longestTransactionMs).toBeGreaterThanOrEqual(SLOW_PURGE_TRANSACTION_MS);
    expect(stats.longestTransactionFirstReadMs).toBeGreaterThanOrEqual(30);
    expect(stats.longestTransactionFirstReadMs).toBeLessThan(stats.longestTransactionMs);
  });
});

describe('purging from where the last chunk stopped', () => {
  it('deletes every expired row when runs of one expiry straddle the chunks, and keeps the rest', async () => {
    const { server, sync, api, factory } = setup();
    const cutoff = NOW_S - PURGE_AFTER_SECONDS;
    server.nowSeconds = NOW_S - 30 * DAY;
    // Runs of 70 rows sharing an expiry: every chunk (at most PURGE_CHUNK rows) ends inside one.
    const gone = PURGE_CHUNK * 3 + 11;
    for (let i = 0; i < gone; i++) server.transaction({ license_plate: `RUN${i}`, expiry_date_time_unix: cutoff - 1 - Math.floor(i / 70) });
    for (let i = 0; i < 5; i++) server.booking('spothero', { license_plate: `SPH${i}`, expiry: cutoff - 1 });
    server.transaction({ license_plate: 'KEEP1', expiry_date_time_unix: cutoff });
    for (const type of ['valid', 'expired', 'spothero'] as const) await sync(type);
    await api.flush();
    expect(await api.purge(NOW)).toEqual({ purged: gone + 5 });
    const after = await readStore(factory);
    expect((after.transactions as { license_plate: string }[]).map((r) => r.license_plate)).toEqual(['KEEP1']);
    expect(after.spothero).toEqual([]);
  });
});

describe('officer locations changing', () => {
  it('starts a type again when a location is added, and drops records of a location removed', async () => {
    const { server, sync, api, factory } = setup();
    server.transaction({ license_plate: 'LOC1', location_id: 1, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 50 });
    server.transaction({ license_plate: 'LOC2', location_id: 2, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 90 });
    await sync('valid', { locationIds: [1] });
    expect(await sync('valid', { locationIds: [1, 2] })).toMatchObject({ outcome: 'done', records: 2 });
    expect(server.calls.at(-1)!.request).toMatchObject({ offset: 0, locationId: [1, 2] });
    expect(server.calls.at(-1)!.request.updated_at).toBeUndefined();
    expect((await api.search({ text: 'loc', now: NOW })).valid.total).toBe(2);
    await sync('valid', { locationIds: [2] });
    expect((await api.search({ text: 'loc', now: NOW })).valid.rows.map((r) => r.license_plate)).toEqual(['LOC2']);
    await api.flush();
    expect(((await readStore(factory)).transactions as StoredTransaction[]).map((t) => t.license_plate)).toEqual(['LOC2']);
  });
});

describe('clear (sign-out)', () => {
  it('empties every table, the index and the snapshot; a later sync starts fresh', async () => {
    const { server, sync, api, factory } = setup();
    server.transaction({ license_plate: 'CLR1', expiry_date_time_unix: NOW_S + DAY });
    server.monthlyParker({ license_plate: 'CLR2', updated_at: NOW_S - 3 * DAY });
    await sync('valid');
    await sync('monthly_parkers');
    await api.clear();
    expect((await api.status()).empty).toBe(true);
    expect((await api.search({ text: 'clr', now: NOW })).valid.total).toBe(0);
    const tables = await readStore(factory);
    for (const [name, rows] of Object.entries(tables)) expect(name === 'meta' ? 1 : rows.length, name).toBe(name === 'meta' ? 1 : 0);
    expect(await sync('valid')).toMatchObject({ outcome: 'done', records: 1 });
    expect(server.calls.at(-1)!.request.updated_at).toBeUndefined();
    expect((await api.search({ text: 'clr', now: NOW })).valid.total).toBe(1);
  });

  it('cancels a sync in progress', async () => {
    const { server, sync, api, factory } = setup({ pageSize: 2 });
    for (let i = 0; i < 10; i++) server.transaction({ expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 100 + i });
    let releaseSecond: () => void = () => {};
    server.beforeAnswer = (call) => (call.n === 2 ? new Promise<void>((resolve) => (releaseSecond = resolve)) : undefined);
    const syncing = sync('valid');
    await until(() => server.calls.length === 2);
    const clearing = api.clear();
    expect(await syncing).toMatchObject({ outcome: 'failed', message: 'The sync was cancelled' });
    releaseSecond();
    await clearing;
    await api.flush();
    const tables = await readStore(factory);
    expect(tables.transactions).toEqual([]);
    expect(tables.staged_pages).toEqual([]);
    expect((await api.search({ text: 'a', now: NOW })).valid.total).toBe(0);
  });
});

describe('two connections (tabs)', () => {
  it('picks up what another connection stored before changing the store itself', async () => {
    const { server, sync, api, restart, factory } = setup();
    const other = restart();
    await other.open();
    server.transaction({ license_plate: 'TABA1', expiry_date_time_unix: NOW_S + DAY });
    server.transaction({ license_plate: 'TABB1', expiry_date_time_unix: NOW_S - 60 });
    expect(await sync('valid')).toMatchObject({ outcome: 'done', records: 1 });
    expect(await sync('expired', { api: other })).toMatchObject({ outcome: 'done', records: 1 });
    const found = await other.search({ text: 'tab', now: NOW });
    expect([found.valid.total, found.expired.total]).toEqual([1, 1]);
    await Promise.all([api.flush(), other.flush()]);
    expect((await readStore(factory)).transactions).toHaveLength(2);
  });
});

describe('expansion in slices', () => {
  /** Watches the transactions that put rows into `table` (they carry the expansion watermark's store too). */
  function watchExpansion(table: string): { slices: IDBTransaction[]; committed: () => number; stop: () => void } {
    const slices: IDBTransaction[] = [];
    let committed = 0;
    setTransactionHook((tx) => {
      const scope = [...tx.objectStoreNames];
      if (tx.mode !== 'readwrite' || !scope.includes('expansion') || !scope.includes(table)) return;
      slices.push(tx);
      tx.addEventListener('complete', () => committed++);
    });
    return { slices, committed: () => committed, stop: () => setTransactionHook(null) };
  }

  it('puts a staged page into its table in several short transactions, a search reading the table between them', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory } = setup();
    for (let i = 0; i < SYNC_PAGE_SIZE; i++) {
      server.transaction({ license_plate: `OLD${i}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 9000 + i });
    }
    await sync('valid');
    await api.flush();
    for (let i = 0; i < SYNC_PAGE_SIZE; i++) {
      server.transaction({ license_plate: `NEW${i}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 5000 + i });
    }
    const watch = watchExpansion('transactions');
    try {
      await sync('valid');
      const flushing = api.flush();
      await until(() => watch.committed() >= 1);
      // OLD… is in the table (its page expanded and collected): the search reads the table the expansion writes.
      const found = await api.search({ text: 'OLD1999', now: NOW });
      const committedWhenAnswered = watch.committed();
      await flushing;
      expect(found.valid.rows.map((row) => row.license_plate)).toEqual(['OLD1999']);
      expect(watch.slices.length).toBeGreaterThan(1);
      // Answered before the page's last slice: it did not wait for the whole page.
      expect(committedWhenAnswered).toBeLessThan(watch.slices.length);
    } finally {
      watch.stop();
    }
    const tables = await readStore(factory);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1]));
    expect(tables.staged_pages).toEqual([]);
  });

  it('answers records already put into their table from memory while the expansion runs, and from the table after', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory } = setup();
    // Six pages, so the expansion is still running when the first page is in its table.
    for (let i = 0; i < SYNC_PAGE_SIZE * 6; i++) {
      server.transaction({ license_plate: `MEM${i}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 90_000 + i });
    }
    await sync('valid');
    const tableReads: IDBTransaction[] = [];
    setTransactionHook((tx) => {
      const scope = [...tx.objectStoreNames];
      if (tx.mode === 'readonly' && scope.includes('transactions') && !scope.includes('expansion')) tableReads.push(tx);
    });
    const reader = await openStoreConnection(factory);
    try {
      let flushed = false;
      const flushing = api.flush().then(() => (flushed = true));
      // The first page is in its table once the watermark passed it (read on a connection of the test's own).
      const watermark = () =>
        new Promise<number>((resolve, reject) => {
          const request = reader.transaction('expansion', 'readonly').objectStore('expansion').get('watermark');
          request.onsuccess = () => resolve((request.result as { seq: number } | undefined)?.seq ?? 0);
          request.onerror = () => reject(request.error);
        });
      await until(async () => (await watermark()) >= 1);
      tableReads.length = 0;
      const during = await api.search({ text: 'MEM1999', now: NOW });
      const readsDuring = tableReads.length;
      const stillExpanding = !flushed;
      await flushing;
      expect(stillExpanding).toBe(true);
      expect(during.valid.rows.map((row) => row.license_plate)).toEqual(['MEM1999']);
      expect(readsDuring).toBe(0);
      // Once the expansion ended, its rows are let go: the same search reads the table, and finds the same row.
      const after = await api.search({ text: 'MEM1999', now: NOW });
      expect(after.valid.rows).toEqual(during.valid.rows);
      expect(tableReads.length).toBeGreaterThan(0);
    } finally {
      setTransactionHook(null);
      reader.close();
    }
  });

  it('leaves a page cut off between slices staged and findable; the next worker puts it again, whole', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory, restart } = setup();
    for (let i = 0; i < SYNC_PAGE_SIZE; i++) {
      server.transaction({ license_plate: `CUT${i}`, expiry_date_time_unix: NOW_S + DAY, updated_at: NOW_S - 9000 + i });
    }
    const watch = watchExpansion('transactions');
    try {
      await sync('valid');
      const flushing = api.flush().catch(() => undefined);
      await until(() => watch.committed() >= 2);
      // The worker dies between slices.
      abortLiveTransactions();
      await api.close();
      await flushing;
    } finally {
      watch.stop();
    }
    const cut = await readStore(factory);
    expect(cut.transactions!.length).toBeGreaterThan(0);
    expect(cut.transactions!.length).toBeLessThan(SYNC_PAGE_SIZE);
    expect(cut.staged_pages).toHaveLength(1);
    const next = restart();
    expect((await next.search({ text: 'CUT', now: NOW })).valid.total).toBe(SYNC_PAGE_SIZE);
    expect((await next.search({ text: 'CUT1999', now: NOW })).valid.rows).toHaveLength(1);
    await next.flush();
    const tables = await readStore(factory);
    expect(storedSource(tables, 'transactions')).toEqual(expectedSource(server, 'transactions', [1]));
    expect(tables.staged_pages).toEqual([]);
  });

  it('puts a monthly parker held under another id there, from the slice that met it on', { timeout: 30_000 }, async () => {
    const { server, sync, api, factory, logs } = setup();
    const parkers = Array.from({ length: SYNC_PAGE_SIZE }, (_, i) =>
      server.monthlyParker({ license_plate: `MP${i}`, parkerid: 5000 + i, updated_at: NOW_S - 9000 + i }),
    );
    await api.open();
    const releaseExpansion = await holdStores(factory, ['expansion']);
    await sync('monthly_parkers');
    // Meanwhile the table came to hold parker 1500 under an id of its own (as another tab's store could).
    const late = parkers[1500]!;
    const db = await openStoreConnection(factory);
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('monthly_parkers', 'readwrite');
      tx.objectStore('monthly_parkers').put({ id: 9_999_999, location_id: late.location_id, parkerid: late.parkerid, license_plate: late.license_plate, fname: 'Stale' });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const watch = watchExpansion('monthly_parkers');
    try {
      await releaseExpansion();
      await api.flush();
      expect(watch.slices.length).toBeGreaterThan(2);
    } finally {
      watch.stop();
    }
    expect(logs.join('\n')).toMatch(/Monthly parker ids disagree/);
    const rows = (await readStore(factory)).monthly_parkers as { id: number; parkerid: number; fname: string }[];
    expect(rows).toHaveLength(SYNC_PAGE_SIZE);
    expect(rows.filter((row) => row.parkerid === late.parkerid)).toEqual([expect.objectContaining({ id: 9_999_999, fname: late.fname })]);
    // The index, which knew the parker under the page's id, is rebuilt by the next change (any sync).
    await sync('valid');
    const found = await api.search({ text: 'MP1500', now: NOW });
    expect(found.monthly_parkers.rows).toEqual([expect.objectContaining({ license_plate: 'MP1500', fname: late.fname })]);
  });
});

describe('purge while records are staged', () => {
  it('waits for expansion, and gives way at once to a sign-out', async () => {
    const { server, sync, api, factory } = setup();
    server.transaction({ license_plate: 'STAY1', expiry_date_time_unix: NOW_S - 30 * DAY, updated_at: NOW_S - 40 * DAY });
    server.nowSeconds = NOW_S - 30 * DAY - 100;
    await api.open();
    // Expansion waits while another connection holds its watermark store.
    const releaseExpansion = await holdStores(factory, ['expansion']);
    await sync('valid');
    let purged: { purged: number } | null = null;
    const purging = api.purge(NOW).then((result) => (purged = result));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(purged).toBeNull(); // waiting for expansion
    const clearing = api.clear();
    await expect(purging).resolves.toEqual({ purged: 0 });
    await releaseExpansion();
    await clearing;
    expect((await readStore(factory)).transactions).toEqual([]);
  });
});

describe('storage status', () => {
  it('reports the estimate and persistence, and asks for persistence once', async () => {
    let persistCalls = 0;
    const storage = {
      estimate: async () => ({ usage: 1234, quota: 99_999 }),
      persisted: async () => true,
      persist: async () => {
        persistCalls++;
        return true;
      },
    } as unknown as StorageManager;
    const { api } = setup({ storage });
    await api.open();
    await api.open();
    expect((await api.status()).storage).toEqual({ usageBytes: 1234, quotaBytes: 99_999, persisted: true });
    expect(persistCalls).toBe(1);
  });
});
