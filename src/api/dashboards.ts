import {
  REALTIME_DASHBOARD_PATH,
  realtimeSummarySchema,
  SETTLED_DASHBOARD_PATH,
  SETTLED_EXPORT_PATH,
  settledDashboardSchema,
  type RealtimeQuery,
  type RealtimeSummary,
  type SettledDashboard,
  type SettledQuery,
} from '../contract/dashboards';
import type { ApiClient, RequestOptions } from './client';

export function getRealtimeSummary(client: ApiClient, query: RealtimeQuery, options?: RequestOptions): Promise<RealtimeSummary> {
  return client.get(REALTIME_DASHBOARD_PATH, query, realtimeSummarySchema, options);
}

export function getSettledDashboard(client: ApiClient, query: SettledQuery, options?: RequestOptions): Promise<SettledDashboard> {
  return client.get(SETTLED_DASHBOARD_PATH, query, settledDashboardSchema, options);
}

/** Saves the settled rows of the range (one per day and location) as CSV, reporting bytes received. */
export async function exportSettledCsv(
  client: ApiClient,
  query: SettledQuery,
  onProgress?: (receivedBytes: number) => void,
): Promise<void> {
  const file = await client.download(SETTLED_EXPORT_PATH, query, {
    fallbackFileName: `settled-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
