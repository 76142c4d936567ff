import type { ApiClient, RequestOptions } from './client';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  PROMO_CODES_EXPORT_PATH,
  PROMO_CODES_LOCATIONS_PATH,
  PROMO_CODES_PATH,
  promoCodeLocationsSchema,
  promoCodePageSchema,
  promoCodeSchema,
  type PromoCode,
  type PromoCodeInput,
  type PromoCodeListQuery,
} from '../contract/promo-codes';
import type { LocationRef } from '../permissions/permissions-object';

const codePath = (promoCodeId: number) => `${PROMO_CODES_PATH}/${promoCodeId}`;
/** Said by the form itself: field errors, a version conflict. */
const QUIET = { quietStatuses: [400, 409] } as const;

export function listPromoCodes(client: ApiClient, search: PromoCodeListQuery, options?: RequestOptions): Promise<Paged<PromoCode>> {
  return client.get(PROMO_CODES_PATH, search, promoCodePageSchema, options);
}

export function listPromoCodeLocations(client: ApiClient, options?: RequestOptions): Promise<LocationRef[]> {
  return client.get(PROMO_CODES_LOCATIONS_PATH, undefined, promoCodeLocationsSchema, options);
}

export function getPromoCode(client: ApiClient, promoCodeId: number, options?: RequestOptions): Promise<PromoCode> {
  return client.get(codePath(promoCodeId), undefined, promoCodeSchema, { quietStatuses: [404], ...options });
}

export function getPromoCodeHistory(client: ApiClient, promoCodeId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${codePath(promoCodeId)}/history`, undefined, historySchema, { quietStatuses: [404], ...options });
}

export function createPromoCode(client: ApiClient, input: PromoCodeInput): Promise<PromoCode> {
  return client.post(PROMO_CODES_PATH, input, promoCodeSchema, QUIET);
}

export function updatePromoCode(client: ApiClient, promoCodeId: number, input: PromoCodeInput & { version: number }): Promise<PromoCode> {
  return client.post(codePath(promoCodeId), input, promoCodeSchema, QUIET);
}

export function setPromoCodeActive(client: ApiClient, promoCodeId: number, change: { active: boolean; version: number }): Promise<PromoCode> {
  return client.post(`${codePath(promoCodeId)}/status`, change, promoCodeSchema, QUIET);
}

export async function exportPromoCodesCsv(client: ApiClient, search: PromoCodeListQuery, onProgress?: (receivedBytes: number) => void) {
  const { page: _page, pageSize: _pageSize, ...filters } = search;
  const file = await client.download(PROMO_CODES_EXPORT_PATH, filters, {
    fallbackFileName: `promo-codes-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
