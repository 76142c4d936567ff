import { LOCATIONS_PATH, locationsListDataSchema, type Location } from '../contract/locations';
import type { ApiClient } from './client';

export function listLocations(client: ApiClient): Promise<Location[]> {
  return client.get(LOCATIONS_PATH, undefined, locationsListDataSchema);
}
