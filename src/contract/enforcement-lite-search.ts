import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/**
 * The Enforcement Lite lists' URL search and the queries of GET /enforcement-lite/locations and /officers. Apart from
 * the rest of the contract: the route checks its search in the entry chunk, which must not carry this section.
 */
export const LITE_LOCATION_STATUSES = ['active', 'inactive'] as const;
export type LiteLocationStatus = (typeof LITE_LOCATION_STATUSES)[number];
export const LITE_OFFICER_STATUSES = ['active', 'disabled'] as const;
export type LiteOfficerStatus = (typeof LITE_OFFICER_STATUSES)[number];

export const LITE_LOCATION_SORT_KEYS = ['name', 'operator_name', 'time_zone', 'capacity', 'status'] as const;
export const LITE_OFFICER_SORT_KEYS = ['email', 'display_name', 'status', 'last_sign_in_at'] as const;

export const liteLocationListQuerySchema = z.object({
  q: textFilter(100),
  status: z.optional(z.enum(LITE_LOCATION_STATUSES)),
  sort: z.optional(z.enum(LITE_LOCATION_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type LiteLocationListQuery = z.infer<typeof liteLocationListQuerySchema>;

export const liteOfficerListQuerySchema = z.object({
  q: textFilter(100),
  status: z.optional(z.enum(LITE_OFFICER_STATUSES)),
  // Officers enforcing this lite location. A number when the router parsed the URL, text over HTTP.
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  sort: z.optional(z.enum(LITE_OFFICER_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type LiteOfficerListQuery = z.infer<typeof liteOfficerListQuerySchema>;

/**
 * The /enforcement-lite page shows one list at a time (`show`); the other parameters are that list's. Status and
 * sort are only bounded text here, because this schema is checked in the entry chunk, which /list pays for: the
 * loader keeps them only when they are the shown list's (`liteListQueries` in enforcement-lite.ts), and drops the rest.
 */
export const LITE_LISTS = ['locations', 'officers'] as const;
const shortText = z.optional(z.string().check(z.maxLength(40)));
export const enforcementLiteSearchSchema = z.object({
  show: z.optional(z.enum(LITE_LISTS)),
  q: textFilter(100),
  status: shortText,
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  sort: shortText,
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type EnforcementLiteSearch = z.infer<typeof enforcementLiteSearchSchema>;
