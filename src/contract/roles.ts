import * as z from 'zod/mini';
import { allLocationsSchema } from '../permissions/all-locations';
import { permissionRecordSchema } from '../permissions/features';
import { canonicalIdParam } from './ids';
import { pagedSchema } from './lists';

export const MAX_ROLE_NAME_LENGTH = 80;

const roleName = z.pipe(
  z.string('Enter the role name.'),
  z.pipe(
    z.transform((value: string) => value.trim()),
    z.string().check(
      z.minLength(1, 'Enter the role name.'),
      z.maxLength(MAX_ROLE_NAME_LENGTH, `The role name must be at most ${MAX_ROLE_NAME_LENGTH} characters.`),
    ),
  ),
);
const versionField = z.int('The version must be a whole number.').check(z.positive('The version must be positive.'));

/**
 * A role as the editor sends it: its name and its permission record (spec §3: per feature, location ids for
 * v/a/e/d; `su` makes it a superuser role). Unknown features or levels are refused by the record's strict schema;
 * location ids that do not exist are refused by the server, naming the list (`permissions.pc.a`).
 */
export const roleInputSchema = z.strictObject({
  name: roleName,
  permissions: permissionRecordSchema,
  /**
   * Per feature, a level held at all locations, now and later (src/permissions/all-locations.ts): only a holder of
   * that very grant (or a superuser) may give or take it away. Absent: none.
   */
  all_locations: z._default(allLocationsSchema, {}),
});
export type RoleInput = z.infer<typeof roleInputSchema>;
export const roleUpdateSchema = z.strictObject({ ...roleInputSchema.shape, version: versionField });
export type RoleUpdate = z.infer<typeof roleUpdateSchema>;
export const roleDeleteSchema = z.strictObject({ version: versionField });

export const roleSchema = z.object({
  role_id: z.int().check(z.positive()),
  name: z.string(),
  superuser: z.boolean(),
  /** Spec §3's lists of ids, each all-locations grant expanded to today's locations. */
  permissions: permissionRecordSchema,
  all_locations: z._default(allLocationsSchema, {}),
  /** Staff members who hold the role (disabled ones included). */
  user_count: z.int().check(z.nonnegative()),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const ROLES_PATH = '/roles';
/** Every location by name: what the role editor's columns and the roles' summaries name. */
export const ROLE_LOCATIONS_PATH = '/roles/locations';
export const roleLocationsSchema = z.array(z.object({ location_id: z.int().check(z.positive()), name: z.string() }));
export type RoleLocation = z.infer<typeof roleLocationsSchema>[number];
export { ROLE_SORT_KEYS, roleListQuerySchema, type RoleListQuery } from './role-search';
export const rolePageSchema = pagedSchema(roleSchema);
export const roleParamsSchema = z.object({ roleId: canonicalIdParam() });
export const roleDeletedSchema = z.object({ deleted: z.literal(true) });

/** The 409 of deleting a role someone holds: who (the first few), so the admin can move them first. */
export const roleInUseSchema = z.object({
  holders: z.array(z.object({ user_id: z.int(), email: z.string(), display_name: z.nullable(z.string()) })),
  total: z.int().check(z.nonnegative()),
});

/**
 * The signed-in user's own grants at all locations, now and later (user roles view): the role editor offers that
 * choice only where they hold it (src/permissions/all-locations.ts); their permission record (spec §3) cannot say it.
 */
export const ROLES_MY_ALL_LOCATIONS_PATH = '/roles/mine/all-locations';
export const myAllLocationsSchema = z.object({ su: z.boolean(), all_locations: allLocationsSchema });
export type MyAllLocations = z.infer<typeof myAllLocationsSchema>;
