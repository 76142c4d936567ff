import { ACCESS_LEVELS, LEVEL_KEYS, type AccessLevel, type FeatureCode, type PermissionRecord } from './features';

/**
 * Location ids at which the record grants `level` on `feature`. Higher access implies lower (spec §5): a location
 * listed under edit also counts for view and add, one under delete counts for every level.
 */
export function locationsWithAccess(record: PermissionRecord, feature: FeatureCode, level: AccessLevel): number[] {
  const grant = record[feature];
  if (!grant) return [];
  const ids = new Set<number>();
  for (const held of ACCESS_LEVELS.slice(ACCESS_LEVELS.indexOf(level))) {
    for (const id of grant[LEVEL_KEYS[held]]) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * The one permission check of the product, used by the console's guards and by the server alike.
 * Superusers pass; otherwise the feature must be present; default access is view; with location ids the user must
 * hold all of them, without them any location suffices.
 */
export function hasPermission(
  record: PermissionRecord,
  feature: FeatureCode,
  level: AccessLevel = 'view',
  locationIds?: readonly number[],
): boolean {
  if (record.su) return true;
  if (locationIds === undefined || locationIds.length === 0) return locationsWithAccess(record, feature, level).length > 0;
  return locationsLacking(record, feature, level, locationIds).length === 0;
}

/**
 * Spec §5 when location ids are given, for the refusals that name them: the ids where the record lacks `level` on
 * `feature`, sorted, none for a superuser. The ids of a record of several locations (a promo code on 1 and 3) or of a
 * list's location filter: viewing, editing or filtering needs the feature at every one of them.
 */
export function locationsLacking(
  record: PermissionRecord,
  feature: FeatureCode,
  level: AccessLevel,
  locationIds: readonly number[],
): number[] {
  if (record.su) return [];
  const held = new Set(locationsWithAccess(record, feature, level));
  return [...new Set(locationIds)].filter((id) => !held.has(id)).sort((a, b) => a - b);
}
