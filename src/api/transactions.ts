import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  TRANSACTION_LOCATIONS_PATH,
  transactionLocationsSchema,
  TRANSACTIONS_EXPORT_PATH,
  TRANSACTIONS_PATH,
  transactionDetailSchema,
  transactionPageSchema,
  type TransactionDetail,
  type TransactionRow,
  type TransactionSearch,
} from '../contract/transactions';
import type { LocationRef } from '../permissions/permissions-object';
import type { ApiClient, RequestOptions } from './client';


/** A payment outside the user's locations answers 404 like a missing one; the detail page says so in place. */
const NOT_FOUND_IN_PLACE = { quietStatuses: [404] } as const;

const transactionPath = (transactionId: number) => `${TRANSACTIONS_PATH}/${transactionId}`;

export function searchTransactions(
  client: ApiClient,
  search: TransactionSearch,
  options?: RequestOptions,
): Promise<Paged<TransactionRow>> {
  return client.get(TRANSACTIONS_PATH, search, transactionPageSchema, options);
}

export function getTransaction(client: ApiClient, transactionId: number, options?: RequestOptions): Promise<TransactionDetail> {
  return client.get(transactionPath(transactionId), undefined, transactionDetailSchema, { ...NOT_FOUND_IN_PLACE, ...options });
}

export function getTransactionHistory(
  client: ApiClient,
  transactionId: number,
  options?: RequestOptions,
): Promise<AuditEntry[]> {
  return client.get(`${transactionPath(transactionId)}/history`, undefined, historySchema, {
    ...NOT_FOUND_IN_PLACE,
    ...options,
  });
}


export function listTransactionLocations(client: ApiClient, options?: RequestOptions): Promise<LocationRef[]> {
  return client.get(TRANSACTION_LOCATIONS_PATH, undefined, transactionLocationsSchema, options);
}

/** Saves every payment the search finds as CSV (the server's file name), reporting bytes received. */
export async function exportTransactionsCsv(
  client: ApiClient,
  search: TransactionSearch,
  onProgress?: (receivedBytes: number) => void,
): Promise<void> {
  const { page: _page, pageSize: _pageSize, ...filters } = search;
  const file = await client.download(TRANSACTIONS_EXPORT_PATH, filters, {
    fallbackFileName: `transactions-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  // Saving touches the DOM only on this click: not part of what every page loads.
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
