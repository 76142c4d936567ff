import * as z from 'zod/mini';
import { ACCESS_LEVELS, FEATURE_CODES, LEVEL_KEYS, type AccessLevel, type FeatureCode, type PermissionRecord } from './features';
import { locationsWithAccess } from './rules';

/**
 * "All locations, now and later" (issue 34, docs/users-and-roles.md): per feature, the highest level a role holds at
 * every location of the full offering, those that exist and those added later (migration 023). A level includes the
 * ones below it, as everywhere in the permission rules. Enforcement Lite locations are another product, added by
 * superusers: such a grant does not reach them (a role still gets one only by listing it).
 *
 * The permission record stays spec §3's lists of ids: the server expands this grant to the current location ids
 * wherever it builds a record, so the console's checks read it like any grant.
 */
const level = z.enum(ACCESS_LEVELS);
export const allLocationsSchema = z.strictObject(
  Object.fromEntries(FEATURE_CODES.map((feature) => [feature, z.optional(level)])) as Record<
    FeatureCode,
    z.ZodMiniOptional<typeof level>
  >,
);
export type AllLocations = Partial<Record<FeatureCode, AccessLevel>>;

/**
 * Stands for "all locations, now and later" in the no-escalation check and the role editor: no location has id 0.
 * A record holding it is a check's working copy only; it is never stored, served or parsed as a permission record.
 */
export const ALL_LOCATIONS = 0;
export const ALL_LOCATIONS_WORDS = 'all locations, now and later';

const emptyGrant = () => ({ v: [] as number[], a: [] as number[], e: [] as number[], d: [] as number[] });

/**
 * What a role (or a person) holds, in one record for the no-escalation check: its grants, each all-locations grant
 * expanded to `locationIds` (the full offering's, now) and also held at ALL_LOCATIONS, a location of its own. So
 * giving or taking away "pc edit at all locations, now and later" changes (pc, edit, ALL_LOCATIONS), which only a
 * holder of that very grant holds: holding every current location is not enough.
 */
export function holdings(record: PermissionRecord, allLocations: AllLocations, locationIds: readonly number[]): PermissionRecord {
  if (record.su) return record;
  const next: PermissionRecord = { ...record };
  for (const feature of FEATURE_CODES) {
    const held = allLocations[feature];
    if (!held) continue;
    const grant = { ...emptyGrant(), ...next[feature] };
    const key = LEVEL_KEYS[held];
    grant[key] = [...new Set([...grant[key], ...locationIds, ALL_LOCATIONS])].sort((a, b) => a - b);
    next[feature] = grant;
  }
  return next;
}

/** The record with ALL_LOCATIONS taken out again, and the all-locations grants it held (the editor's save). */
export function splitAllLocations(record: PermissionRecord): { permissions: PermissionRecord; all_locations: AllLocations } {
  const permissions: PermissionRecord = { su: record.su };
  const allLocations: AllLocations = {};
  for (const feature of FEATURE_CODES) {
    const grant = record[feature];
    if (!grant) continue;
    const top = [...ACCESS_LEVELS].reverse().find((held) => locationsWithAccess(record, feature, held).includes(ALL_LOCATIONS));
    if (top) allLocations[feature] = top;
    const plain = emptyGrant();
    for (const held of ACCESS_LEVELS) plain[LEVEL_KEYS[held]] = grant[LEVEL_KEYS[held]].filter((id) => id !== ALL_LOCATIONS);
    if (ACCESS_LEVELS.some((held) => plain[LEVEL_KEYS[held]].length > 0)) permissions[feature] = plain;
  }
  return { permissions, all_locations: record.su ? {} : allLocations };
}
