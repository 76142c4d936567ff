import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
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

/**
 * The User Roles screen's URL (/role-Config): the list's search and the open editor, `?edit=<roleId>` or `?new=1`,
 * so a reload, a copied link or a new tab opens the same editor. Only the list's part is sent to GET /roles.
 */
export const roleConfigSearchSchema = z.object({
  // Spread, not z.extend: extend's zod code (0.3 KB gz) would land in the chunk every page loads (vite.config.ts).
  ...roleListQuerySchema.shape,
  edit: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  new: z.optional(z.pipe(z.coerce.string(), z.pipe(z.literal('1'), z.transform(() => 1 as const)))),
});
export type RoleConfigSearch = z.infer<typeof roleConfigSearchSchema>;

/** The list's part of the screen's URL: what GET /roles and its CSV take (the open editor is the console's alone). */
export const roleListQueryOf = ({ edit: _edit, new: _new, ...query }: RoleConfigSearch): RoleListQuery => query;
