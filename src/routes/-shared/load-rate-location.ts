import type { ApiClient } from '../../api/client';
import { pageLoadOptions } from '../../api/page-load';

/**
 * The loader of the screens that show one location's rates (/rate-config, /rate-selection): the locations whose rates
 * the user may see, and the chosen one's rates (the first when none or an unknown one is asked for). The API module
 * comes with the request, keeping the rates contract out of the entry chunk
 * (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
 */
export async function loadRateLocation(client: ApiClient, locationId: number | undefined, abortController: AbortController) {
  const { listRateLocations, getRateLocation } = await import('../../api/rates');
  const options = pageLoadOptions(abortController);
  const locations = await listRateLocations(client, options);
  const chosen = locations.find((location) => location.location_id === locationId) ?? locations[0];
  const rates = chosen ? await getRateLocation(client, chosen.location_id, options) : null;
  return { locations, rates };
}
