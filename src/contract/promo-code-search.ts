import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/**
 * The promo-code list's URL search and the query of GET /promo-codes. Apart from the rest of the promo-code contract:
 * the route checks its search in the entry chunk, which must not carry what only this section needs.
 */
export const PROMO_CODE_STATES = ['active', 'inactive', 'scheduled', 'expired', 'used_up'] as const;
export const PROMO_CODE_SORT_KEYS = ['code', 'valid_from', 'valid_to', 'uses', 'remaining'] as const;

export const promoCodeListQuerySchema = z.object({
  q: textFilter(20),
  /** active: usable now (on, in its window, not used up); inactive: switched off; the others say why not usable. */
  state: z.optional(z.enum(PROMO_CODE_STATES)),
  /** From the URL as text, or from the router's parsed search as a number. */
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  sort: z.optional(z.enum(PROMO_CODE_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type PromoCodeListQuery = z.infer<typeof promoCodeListQuerySchema>;
