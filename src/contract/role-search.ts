import * as z from 'zod/mini';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/**
 * The roles list's URL search and the query of GET /roles. Apart from the rest of the roles contract: the route checks
 * its search in the entry chunk, which must not carry what only this section needs.
 */
export const ROLE_SORT_KEYS = ['name', 'user_count', 'updated_at'] as const;
export const roleListQuerySchema = z.object({
  q: textFilter(100),
  sort: z.optional(z.enum(ROLE_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type RoleListQuery = z.infer<typeof roleListQuerySchema>;
