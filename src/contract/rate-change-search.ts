import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam } from './lists';

/**
 * The rate-change list's URL search and the query of GET /rates/changes. Apart from the rest of the rates contract:
 * the /rates route checks its search in the entry chunk, which must not carry the price engine's types and rules.
 */
export const RATE_CHANGE_STATUSES = ['scheduled', 'applied', 'cancelled'] as const;
export type RateChangeStatus = (typeof RATE_CHANGE_STATUSES)[number];
export const RATE_CHANGE_SORT_KEYS = ['effective_at', 'location', 'created_at'] as const;

export const rateChangeListQuerySchema = z.object({
  /** From the URL as text, or from the router's parsed search as a number. */
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  status: z.optional(z.enum(RATE_CHANGE_STATUSES)),
  sort: z.optional(z.enum(RATE_CHANGE_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type RateChangeListQuery = z.infer<typeof rateChangeListQuerySchema>;
