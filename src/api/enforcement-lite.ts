import type * as z from 'zod/mini';
import {
  invitedLiteOfficerSchema,
  LITE_LOCATION_CHOICES_PATH,
  LITE_LOCATIONS_PATH,
  LITE_OFFICERS_PATH,
  liteLocationChoicesSchema,
  liteLocationPageSchema,
  liteLocationSchema,
  liteOfficerPageSchema,
  liteOfficerSchema,
  type LiteLocation,
  type LiteLocationChoice,
  type LiteLocationInput,
  type LiteLocationListQuery,
  type LiteLocationUpdate,
  type LiteOfficer,
  type LiteOfficerInvite,
  type LiteOfficerListQuery,
  type LiteOfficerUpdate,
} from '../contract/enforcement-lite';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import type { ApiClient, RequestOptions } from './client';

/** Enforcement Lite (issue 14). Writes are quiet about what their screens explain in place: 400, 403 and 409. */
const IN_PLACE = { quietStatuses: [400, 403, 409] } as const;
const locationPath = (locationId: number) => `${LITE_LOCATIONS_PATH}/${locationId}`;
const officerPath = (userId: number) => `${LITE_OFFICERS_PATH}/${userId}`;

export function listLiteLocations(client: ApiClient, query: LiteLocationListQuery, options?: RequestOptions): Promise<Paged<LiteLocation>> {
  return client.get(LITE_LOCATIONS_PATH, query, liteLocationPageSchema, options);
}

export function getLiteLocation(client: ApiClient, locationId: number, options?: RequestOptions): Promise<LiteLocation> {
  return client.get(locationPath(locationId), undefined, liteLocationSchema, options);
}

export function getLiteLocationHistory(client: ApiClient, locationId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${locationPath(locationId)}/history`, undefined, historySchema, options);
}

export function createLiteLocation(client: ApiClient, input: LiteLocationInput): Promise<LiteLocation> {
  return client.post(LITE_LOCATIONS_PATH, input, liteLocationSchema, IN_PLACE);
}

export function updateLiteLocation(client: ApiClient, locationId: number, update: LiteLocationUpdate): Promise<LiteLocation> {
  return client.post(locationPath(locationId), update, liteLocationSchema, IN_PLACE);
}

export function listLiteLocationChoices(client: ApiClient, options?: RequestOptions): Promise<LiteLocationChoice[]> {
  return client.get(LITE_LOCATION_CHOICES_PATH, undefined, liteLocationChoicesSchema, options);
}

export function listLiteOfficers(client: ApiClient, query: LiteOfficerListQuery, options?: RequestOptions): Promise<Paged<LiteOfficer>> {
  return client.get(LITE_OFFICERS_PATH, query, liteOfficerPageSchema, options);
}

export function getLiteOfficer(client: ApiClient, userId: number, options?: RequestOptions): Promise<LiteOfficer> {
  return client.get(officerPath(userId), undefined, liteOfficerSchema, options);
}

export function getLiteOfficerHistory(client: ApiClient, userId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${officerPath(userId)}/history`, undefined, historySchema, options);
}

export function inviteLiteOfficer(client: ApiClient, invite: LiteOfficerInvite): Promise<z.infer<typeof invitedLiteOfficerSchema>> {
  return client.post(LITE_OFFICERS_PATH, invite, invitedLiteOfficerSchema, IN_PLACE);
}

export function updateLiteOfficer(client: ApiClient, userId: number, update: LiteOfficerUpdate): Promise<LiteOfficer> {
  return client.post(officerPath(userId), update, liteOfficerSchema, IN_PLACE);
}
