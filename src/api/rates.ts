import type { Paged } from '../contract/lists';
import {
  RATES_PATH,
  rateChangeDetailSchema,
  rateChangePageSchema,
  rateLocationRefsSchema,
  rateLocationSchema,
  type RateChange,
  type RateChangeDetail,
  type RateChangeInput,
  type RateChangeListQuery,
  type RateConfigUpdate,
  type RateLocation,
} from '../contract/rates';
import type { ApiClient, RequestOptions } from './client';

/** Rates (docs/rates.md): the user's rate locations and one location's rates now. */
export function listRateLocations(client: ApiClient, options?: RequestOptions) {
  return client.get(`${RATES_PATH}/locations`, undefined, rateLocationRefsSchema, options);
}

export function getRateLocation(client: ApiClient, locationId: number, options?: RequestOptions): Promise<RateLocation> {
  return client.get(`${RATES_PATH}/locations/${locationId}`, undefined, rateLocationSchema, options);
}

/** Saves the configuration edited from `update.version`; 400 and 409 are explained by the form in place. */
export function saveRateConfig(client: ApiClient, locationId: number, update: RateConfigUpdate): Promise<RateLocation> {
  return client.post(`${RATES_PATH}/locations/${locationId}/config`, update, rateLocationSchema, { quietStatuses: [400, 409] });
}

/** The rate changes of the user's locations: one page of the list's filters and sort. */
export function listRateChanges(client: ApiClient, query: RateChangeListQuery, options?: RequestOptions): Promise<Paged<RateChange>> {
  return client.get(`${RATES_PATH}/changes`, query, rateChangePageSchema, options);
}

/** Saves every rate change the list's filters match as CSV (the server's file name), reporting bytes received. */
export async function exportRateChangesCsv(
  client: ApiClient,
  query: RateChangeListQuery,
  onProgress?: (receivedBytes: number) => void,
): Promise<void> {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const file = await client.download(`${RATES_PATH}/changes/export`, filters, {
    fallbackFileName: `rate-changes-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}

/** One change with its rate set (to start an edit from it, say). */
export function getRateChange(client: ApiClient, rateSetId: number, options?: RequestOptions): Promise<RateChangeDetail> {
  return client.get(`${RATES_PATH}/changes/${rateSetId}`, undefined, rateChangeDetailSchema, options);
}

/** Schedules a rate set at a location from `input.schedule_version`; 400 and 409 are explained by the editor. */
export function scheduleRateChange(client: ApiClient, locationId: number, input: RateChangeInput): Promise<RateChangeDetail> {
  return client.post(`${RATES_PATH}/locations/${locationId}/changes`, input, rateChangeDetailSchema, { quietStatuses: [400, 409] });
}

/** Cancels a scheduled change; a 409 (applied meanwhile, or the schedule moved on) is explained by the dialog. */
export function cancelRateChange(client: ApiClient, rateSetId: number, scheduleVersion: number): Promise<RateChangeDetail> {
  return client.post(`${RATES_PATH}/changes/${rateSetId}/cancel`, { schedule_version: scheduleVersion }, rateChangeDetailSchema, {
    quietStatuses: [409],
  });
}
