import {
  locationViolationListSchema,
  locationViolationPath,
  locationViolationSchema,
  locationViolationsPath,
  type LocationViolation,
  type ViolationInput,
  type ViolationUpdate,
} from '../contract/violations';
import type { ApiClient, RequestOptions } from './client';

/**
 * A location's violations (docs/decisions/0097), apart from src/api/locations.ts: the edit route's loader imports
 * this module when it runs, so its schemas stay out of the entry chunk that /login and /list load first.
 */
const IN_PLACE = { quietStatuses: [400, 404, 409] } as const;

/** The location's violations, active or not (docs/decisions/0097). */
export function getLocationViolations(client: ApiClient, locationId: number, options?: RequestOptions): Promise<LocationViolation[]> {
  return client.get(locationViolationsPath(locationId), undefined, locationViolationListSchema, options);
}

export function addLocationViolation(client: ApiClient, locationId: number, input: ViolationInput): Promise<LocationViolation> {
  return client.post(locationViolationsPath(locationId), input, locationViolationSchema, IN_PLACE);
}

/** Renames, changes the fine, deactivates or activates one violation, from `change.version`. */
export function updateLocationViolation(client: ApiClient, locationId: number, code: string, change: ViolationUpdate): Promise<LocationViolation> {
  return client.post(locationViolationPath(locationId, code), change, locationViolationSchema, IN_PLACE);
}
