/**
 * Plain IndexedDB for the sync bench's probe worker: promises over requests and transactions, opening an existing
 * database without upgrading it, and scratch databases. Nothing here is the worker under test; src/ is not imported.
 */

export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new DOMException('transaction aborted', 'AbortError'));
  });
}

/** Opens an existing database at its current version; never creates or upgrades one. */
export function openExisting(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onupgradeneeded = () => {
      open.transaction?.abort();
      reject(new Error(`database ${name} does not exist`));
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error(`deleting ${name} is blocked by an open connection`));
  });
}

export interface ScratchStore {
  name: string;
  keyPath: string;
  autoIncrement?: boolean;
}

/** A new, empty scratch database with these stores (an old one of the same name is deleted first). */
export async function openScratch(name: string, stores: readonly ScratchStore[]): Promise<IDBDatabase> {
  await deleteDatabase(name);
  return new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      for (const store of stores) open.result.createObjectStore(store.name, { keyPath: store.keyPath, autoIncrement: store.autoIncrement ?? false });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** Puts `rows` in one read-write transaction; resolves with its time from the first put to `complete` (ms). */
export async function timedPut(db: IDBDatabase, store: string, rows: readonly unknown[], options?: IDBTransactionOptions): Promise<number> {
  const started = performance.now();
  const tx = db.transaction(store, 'readwrite', options);
  const finished = done(tx);
  const objectStore = tx.objectStore(store);
  for (const row of rows) objectStore.put(row);
  await finished;
  return performance.now() - started;
}
