import { IDBDatabase as FakeIDBDatabase } from 'fake-indexeddb';
import { afterEach } from 'vitest';
import type { SyncType } from '../../../src/contract/enforcement';
import { createEnforcementApi, type EnforcementApi, type EnforcementApiOptions } from '../../../src/worker/enforcement-api';
import type { SyncProgress } from '../../../src/worker/enforcement-worker-api';
import {
  EnforcementStore,
  STORE_NAME,
  type IndexedDbFactory,
  type StoredRecord,
} from '../../../src/worker/store';
import { API_BASE, auth, FakeEnforcementServer, freshIndexedDb } from './fake-enforcement-server';

/** Shared set-up of the worker API tests: a private IndexedDB, a fake server, and helpers to read the store. */

/** A fixed local wall clock (the monthly-parker rule compares local dates). */
export const NOW = new Date(2025, 5, 18, 14, 0, 0).getTime();
export const NOW_S = Math.floor(NOW / 1000);

/**
 * Every unfinished fake-IndexedDB transaction, so that a test can end a "worker" the way termination does: its
 * transactions that have not committed are aborted.
 */
const liveTransactions = new Set<IDBTransaction>();
const exemptTransactions = new WeakSet<IDBTransaction>();
let transactionHook: ((tx: IDBTransaction) => void) | null = null;
const createTransaction = FakeIDBDatabase.prototype.transaction;
FakeIDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
  const tx = createTransaction.apply(this, args);
  transactionHook?.(tx);
  liveTransactions.add(tx);
  const forget = () => liveTransactions.delete(tx);
  tx.addEventListener('complete', forget);
  tx.addEventListener('abort', forget);
  return tx;
};

/** Called whenever a transaction is created (fault schedules count them as points where a worker may die). */
export function setTransactionHook(hook: ((tx: IDBTransaction) => void) | null): void {
  transactionHook = hook;
}

/** Aborts every transaction not yet committed (those of holdStores aside); returns how many. */
export function abortLiveTransactions(): number {
  let aborted = 0;
  for (const tx of [...liveTransactions]) {
    if (exemptTransactions.has(tx)) continue;
    try {
      tx.abort();
      aborted++;
    } catch {
      // Committing or finished: it made it.
    }
    liveTransactions.delete(tx);
  }
  return aborted;
}

const opened: EnforcementApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((api) => api.close()));
});

export interface Kit {
  factory: IndexedDbFactory;
  server: FakeEnforcementServer;
  api: EnforcementApi;
  logs: string[];
  /** Another API instance on the same IndexedDB (a restarted worker). */
  restart(extra?: Partial<EnforcementApiOptions>): EnforcementApi;
  sync(type: SyncType, options?: { locationIds?: number[]; now?: number; api?: EnforcementApi; onProgress?: (p: SyncProgress) => void }): ReturnType<EnforcementApi['syncType']>;
}

export function setup(options: Partial<EnforcementApiOptions> = {}, seed = 1): Kit {
  const factory = freshIndexedDb();
  const server = new FakeEnforcementServer({ nowSeconds: NOW_S, seed });
  const logs: string[] = [];
  const make = (extra: Partial<EnforcementApiOptions> = {}) => {
    const api = createEnforcementApi({
      indexedDB: factory,
      fetch: server.fetch,
      storage: null,
      locks: null,
      log: (message) => logs.push(message),
      ...options,
      ...extra,
    });
    opened.push(api);
    return api;
  };
  const kit: Kit = {
    factory,
    server,
    api: make(),
    logs,
    restart: make,
    sync: (type, { locationIds = [1], now = NOW, api = kit.api, onProgress = () => undefined } = {}) =>
      api.syncType({ type, apiBase: API_BASE, locationIds, now }, auth(), onProgress),
  };
  return kit;
}

/** Reads every row of the store's tables through a connection of its own. */
export async function readStore(factory: IndexedDbFactory): Promise<Record<string, unknown[]>> {
  const store = new EnforcementStore(factory, STORE_NAME);
  await store.open();
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of store.tables) tables[table.name] = await table.toArray();
    return tables;
  } finally {
    store.close();
  }
}

/** A stored row as the server sent it: without what the store adds. */
export function asServerRecord(row: unknown): unknown {
  const { sync_time: _syncTime, expiry_unix: _expiry, ...rest } = row as StoredRecord & { expiry_unix?: number };
  if ('parkerid' in rest) {
    const { id: _id, ...parker } = rest as { id: number };
    return parker;
  }
  return rest;
}

export function byKey(a: unknown, b: unknown): number {
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;
}

/** The server's records of a source for `locations`, sorted, as the store should hold them once synced. */
export function expectedSource(server: FakeEnforcementServer, source: 'transactions' | 'spothero' | 'parkwhiz' | 'monthly_parkers', locations: number[]): unknown[] {
  const records =
    source === 'transactions'
      ? [...server.expected('valid', locations), ...server.expected('expired', locations)]
      : server.expected(source, locations);
  return records.sort(byKey);
}

export function storedSource(tables: Record<string, unknown[]>, source: string): unknown[] {
  return (tables[source] ?? []).map(asServerRecord).sort(byKey);
}

/** A connection of its own to the store, as another tab would have (the caller closes it). */
export function openStoreConnection(factory: IndexedDbFactory): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.indexedDB.open(STORE_NAME);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Holds a readwrite transaction on `stores` from another connection until released, so that the worker's
 * transactions on them wait (used to catch records while pending or staged).
 */
export async function holdStores(factory: IndexedDbFactory, stores: string[]): Promise<() => Promise<void>> {
  const db = await openStoreConnection(factory);
  let held = true;
  const tx = db.transaction(stores, 'readwrite');
  exemptTransactions.add(tx);
  const store = tx.objectStore(stores[0]!);
  const spin = () => {
    if (!held) return;
    // The next request from the success callback keeps the transaction active.
    store.get(-1).onsuccess = spin;
  };
  spin();
  const started = new Promise<void>((resolve) => setTimeout(resolve, 5));
  await started;
  const done = new Promise<void>((resolve) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => resolve();
  });
  return async () => {
    held = false;
    await done;
    db.close();
  };
}

/** Resolves when `predicate` holds, polling. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export { freshIndexedDb };
