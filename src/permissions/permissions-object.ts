import * as z from 'zod/mini';
import { FEATURE_CODES, permissionRecordSchema, type FeatureCode, type PermissionRecord } from './features';
import { hasPermission, locationsWithAccess } from './rules';

export const locationRefSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  time_zone: z.string(),
});
export type LocationRef = z.infer<typeof locationRefSchema>;

const idList = z.array(z.int().check(z.positive()));
export const featureLocationsSchema = z.object({ view: idList, add: idList, edit: idList, delete: idList });
export type FeatureLocations = z.infer<typeof featureLocationsSchema>;

/** Locations per feature and level, with the implication rules already applied (spec §3 featureLevelLocations). */
export const featureLevelLocationsSchema = z.object({
  /** Every location the user holds any access to, in any feature. */
  default: idList,
  features: z.object(
    Object.fromEntries(FEATURE_CODES.map((code) => [code, featureLocationsSchema])) as Record<
      FeatureCode,
      typeof featureLocationsSchema
    >,
  ),
  enforcementLocations: z.array(locationRefSchema),
  canAddLocation: z.boolean(),
});
export type FeatureLevelLocations = z.infer<typeof featureLevelLocationsSchema>;

/** The permissions object of the signed-in user (spec §3), as the server returns it in userData. */
export const userPermissionsSchema = z.object({
  token: z.string(),
  email: z.string(),
  superuser: z.boolean(),
  hasEnforcementPermission: z.boolean(),
  hasRateSettingsPermission: z.boolean(),
  hasPromoCodePermission: z.boolean(),
  hasRefundPortalPermission: z.boolean(),
  hasUserPermission: z.boolean(),
  hasUserRolePermission: z.boolean(),
  hasSettledDashboardPermission: z.boolean(),
  hasRealTimeDashboardPermission: z.boolean(),
  hasLocationsPermissions: z.boolean(),
  promoCodePermissions: z.object({ canEdit: z.boolean(), canAdd: z.boolean() }),
  rateSettingsPermissions: z.object({ canEdit: z.boolean() }),
  featureLevelLocations: featureLevelLocationsSchema,
  /** The raw record, so that location-scoped checks in the console run through the same `hasPermission`. */
  permissions: permissionRecordSchema,
});
export type UserPermissions = z.infer<typeof userPermissionsSchema>;

function featureLocations(record: PermissionRecord, feature: FeatureCode, allIds: number[]): FeatureLocations {
  if (record.su) return { view: allIds, add: allIds, edit: allIds, delete: allIds };
  return {
    view: locationsWithAccess(record, feature, 'view'),
    add: locationsWithAccess(record, feature, 'add'),
    edit: locationsWithAccess(record, feature, 'edit'),
    delete: locationsWithAccess(record, feature, 'delete'),
  };
}

/** Derives the permissions object from a permission record, the locations that exist and the session token. */
export function derivePermissions(input: {
  record: PermissionRecord;
  email: string;
  token: string;
  locations: readonly LocationRef[];
}): UserPermissions {
  const { record, email, token, locations } = input;
  const allIds = locations.map((l) => l.location_id).sort((a, b) => a - b);
  const features = Object.fromEntries(
    FEATURE_CODES.map((code) => [code, featureLocations(record, code, allIds)]),
  ) as Record<FeatureCode, FeatureLocations>;
  const anyAccess = new Set(FEATURE_CODES.flatMap((code) => features[code].view));
  const enforcementIds = new Set(features.e.view);
  const can = (feature: FeatureCode, level: 'view' | 'add' | 'edit' = 'view') => hasPermission(record, feature, level);
  return {
    token,
    email,
    superuser: record.su,
    hasEnforcementPermission: can('e'),
    hasRateSettingsPermission: can('rs'),
    hasPromoCodePermission: can('pc'),
    hasRefundPortalPermission: can('rp'),
    hasUserPermission: can('u'),
    hasUserRolePermission: can('ur'),
    hasSettledDashboardPermission: can('sd'),
    hasRealTimeDashboardPermission: can('rd'),
    hasLocationsPermissions: can('lo'),
    promoCodePermissions: { canEdit: can('pc', 'edit'), canAdd: can('pc', 'add') },
    rateSettingsPermissions: { canEdit: can('rs', 'edit') },
    featureLevelLocations: {
      default: allIds.filter((id) => anyAccess.has(id)),
      features,
      enforcementLocations: locations.filter((l) => enforcementIds.has(l.location_id)),
      canAddLocation: can('lo', 'add'),
    },
    permissions: record,
  };
}
