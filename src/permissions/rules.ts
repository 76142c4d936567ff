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
  const held = locationsWithAccess(record, feature, level);
  if (locationIds === undefined || locationIds.length === 0) return held.length > 0;
  const heldSet = new Set(held);
  return locationIds.every((id) => heldSet.has(id));
}
