import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/** The Locations list's query and the edit route's parameter, apart from the rest of the contract (entry chunk). */
export const LOCATION_STATUSES = ['active', 'inactive'] as const;
export const LOCATION_SORT_KEYS = ['name', 'time_zone', 'capacity', 'status', 'enforcement_enabled', 'grace_period_minutes'] as const;
export type LocationSortKey = (typeof LOCATION_SORT_KEYS)[number];

/** The list's filter, sort and page: the URL's search params and the query of GET /locations alike. */
export const locationListQuerySchema = z.object({
  q: textFilter(100),
  status: z.optional(z.enum(LOCATION_STATUSES)),
  sort: z.optional(z.enum(LOCATION_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type LocationListQuery = z.infer<typeof locationListQuerySchema>;

export const locationParamsSchema = z.object({ locationId: canonicalIdParam() });
