import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/**
 * The staff list's URL search and the query of GET /users. Apart from the rest of the users contract: the route checks
 * its search in the entry chunk, which must not carry what only this section needs.
 */
export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_SORT_KEYS = ['email', 'display_name', 'role', 'status', 'last_sign_in_at'] as const;
export const userListQuerySchema = z.object({
  q: textFilter(100),
  status: z.optional(z.enum(USER_STATUSES)),
  // A number when the router parsed the URL, text over HTTP.
  roleId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  sort: z.optional(z.enum(USER_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;
