import * as z from 'zod/mini';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  LOCATIONS_EXPORT_PATH,
  LOCATIONS_PATH,
  locationPageSchema,
  locationSchema,
  type Location,
  type LocationInput,
  type LocationListQuery,
  type LocationUpdate,
} from '../contract/locations';
import type { ApiClient, RequestOptions } from './client';

/**
 * Locations (docs/sections.md): the list, one location, its history, and the writes. Writes are quiet about the
 * statuses their screens explain in place: 400 (field errors) and 409 (changed by someone else, or has records).
 */
const IN_PLACE = { quietStatuses: [400, 409] } as const;

const locationPath = (locationId: number) => `${LOCATIONS_PATH}/${locationId}`;

export function listLocations(client: ApiClient, query: LocationListQuery, options?: RequestOptions): Promise<Paged<Location>> {
  return client.get(LOCATIONS_PATH, query, locationPageSchema, options);
}

export function getLocation(client: ApiClient, locationId: number, options?: RequestOptions): Promise<Location> {
  return client.get(locationPath(locationId), undefined, locationSchema, options);
}

export function getLocationHistory(client: ApiClient, locationId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${locationPath(locationId)}/history`, undefined, historySchema, options);
}

export function createLocation(client: ApiClient, input: LocationInput): Promise<Location> {
  return client.post(LOCATIONS_PATH, input, locationSchema, IN_PLACE);
}

/** Saves an edit made from `update.version`; a 409 means someone saved in between (src/api/error-data.ts). */
export function updateLocation(client: ApiClient, locationId: number, update: LocationUpdate): Promise<Location> {
  return client.post(locationPath(locationId), update, locationSchema, IN_PLACE);
}

/** Deactivates or activates a location. */
export function setLocationStatus(
  client: ApiClient,
  locationId: number,
  change: { status: Location['status']; version: number },
): Promise<Location> {
  return client.post(`${locationPath(locationId)}/status`, change, locationSchema, IN_PLACE);
}

const deletedSchema = z.object({ deleted: z.literal(true) });

/** Deletes a location that has no records; a 409 says it has some (deactivate it instead). */
export async function deleteLocation(client: ApiClient, locationId: number, version: number): Promise<void> {
  await client.post(`${locationPath(locationId)}/delete`, { version }, deletedSchema, IN_PLACE);
}

/** Saves every location the list's filters match as CSV (the server's file name), reporting bytes received. */
export async function exportLocationsCsv(
  client: ApiClient,
  query: LocationListQuery,
  onProgress?: (receivedBytes: number) => void,
): Promise<void> {
  // The export has every matching row, in the list's order: paging is left out.
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const file = await client.download(LOCATIONS_EXPORT_PATH, filters, {
    fallbackFileName: `locations-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  // Saving touches the DOM only on this click: not part of what every page loads.
  const { saveFile } = await import('./save-file');
  saveFile(file);
}

