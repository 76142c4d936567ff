import type { AccessLevel, FeatureCode, PermissionRecord } from './features';
import { hasPermission, locationsWithAccess } from './rules';

/** The locations whose rows a user may see through a feature: every location for superusers, else the listed ones. */
export type LocationScope = { all: true } | { all: false; ids: number[] };

export function locationScope(record: PermissionRecord, feature: FeatureCode, level: AccessLevel = 'view'): LocationScope {
  if (record.su) return { all: true };
  return { all: false, ids: locationsWithAccess(record, feature, level) };
}

export function inScope(scope: LocationScope, locationId: number): boolean {
  return scope.all || scope.ids.includes(locationId);
}

/** `hasPermission` for one location, the shape most row checks take. */
export function mayAt(record: PermissionRecord, feature: FeatureCode, level: AccessLevel, locationId: number): boolean {
  return hasPermission(record, feature, level, [locationId]);
}
