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

/**
 * The Users screen's URL (/user-config): the list's search and the open panel, `?edit=<userId>` or `?invite=1`, so a
 * reload, a copied link or a new tab opens the same editor. Only the list's part is sent to GET /users.
 */
export const userConfigSearchSchema = z.object({
  // Spread, not z.extend: extend's zod code (0.3 KB gz) would land in the chunk every page loads (vite.config.ts).
  ...userListQuerySchema.shape,
  edit: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  invite: z.optional(z.pipe(z.coerce.string(), z.pipe(z.literal('1'), z.transform(() => 1 as const)))),
});
export type UserConfigSearch = z.infer<typeof userConfigSearchSchema>;

/** The list's part of the screen's URL: what GET /users and its CSV take (the open editor is the console's alone). */
export const userListQueryOf = ({ edit: _edit, invite: _invite, ...query }: UserConfigSearch): UserListQuery => query;
