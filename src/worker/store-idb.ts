/** Promises over raw IndexedDB requests and transactions, for the hot paths that bypass Dexie. */

export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * Resolves when the transaction commits; rejects when it aborts (the first failed request's error, if any). The
 * rejection counts as handled, so paths that abort on purpose need not await it.
 */
export function transactionDone(tx: IDBTransaction): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted', 'AbortError'));
    tx.onerror = (event) => {
      // Let the failure abort the transaction; onabort reports it once.
      event.stopPropagation();
    };
  });
  done.catch(() => undefined);
  return done;
}

/** Aborts `tx` unless it has already finished. */
export function abortQuietly(tx: IDBTransaction): void {
  try {
    tx.abort();
  } catch {
    // Already committed or aborted.
  }
}
