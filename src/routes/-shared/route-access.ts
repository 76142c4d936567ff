import type { UserPermissions } from '../../permissions/permissions-object';

/**
 * Who may open each section of the console (spec §2). The route guards and the sidebar both read this table, so
 * what a user sees and what a user may open never disagree. The server enforces the same rules on its own.
 */
export interface AccessContext {
  permissions: UserPermissions;
  isProductionHost: boolean;
}

type Rule = (ctx: AccessContext) => boolean;

const superuserOnly: Rule = ({ permissions }) => permissions.superuser;
const rateSettings: Rule = ({ permissions }) => permissions.hasRateSettingsPermission;
const refundPortal: Rule = ({ permissions }) => permissions.hasRefundPortalPermission;
const locations: Rule = ({ permissions }) =>
  permissions.hasLocationsPermissions || permissions.featureLevelLocations.canAddLocation;

export const sectionAccess = {
  realTimeDashboard: ({ permissions }) => permissions.hasRealTimeDashboardPermission,
  settledDashboard: ({ permissions }) => permissions.hasSettledDashboardPermission,
  enforcement: ({ permissions }) => permissions.hasEnforcementPermission,
  rateSelection: rateSettings,
  rateChanges: rateSettings,
  rateChangeEdit: ({ permissions }) => permissions.hasRateSettingsPermission && permissions.rateSettingsPermissions.canEdit,
  rateConfig: rateSettings,
  promoCodes: ({ permissions }) => permissions.hasPromoCodePermission,
  promoCodeEdit: ({ permissions }) =>
    permissions.hasPromoCodePermission &&
    (permissions.promoCodePermissions.canEdit || permissions.promoCodePermissions.canAdd),
  refundPortal,
  transactions: refundPortal,
  users: ({ permissions }) => permissions.hasUserPermission,
  userRoles: ({ permissions }) => permissions.hasUserRolePermission,
  locations,
  addLocation: locations,
  editLocation: ({ permissions }) => permissions.hasLocationsPermissions,
  mailing: superuserOnly,
  databaseCopy: (ctx) => ctx.permissions.superuser && !ctx.isProductionHost,
  enforcementLite: superuserOnly,
} satisfies Record<string, Rule>;

export type Section = keyof typeof sectionAccess;

export function canOpen(section: Section, ctx: AccessContext): boolean {
  return sectionAccess[section](ctx);
}
