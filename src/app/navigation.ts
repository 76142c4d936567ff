import { canOpen, type AccessContext, type Section } from './route-access';

/**
 * The console's sections in sidebar order (spec §2), each with the route it opens and the rule that guards it.
 * `needsAuthentication`: spec §6 says these entries also require authentication to be enabled, i.e. a session the
 * identity provider and the server confirmed in this visit; a session restored from the local cache while offline
 * (officers) offers only what works offline (docs/decisions.md).
 */
export const NAVIGATION = [
  { label: 'Real Time Dashboard', to: '/', section: 'realTimeDashboard', needsAuthentication: true },
  { label: 'Settled Dashboard', to: '/settled-dashboard', section: 'settledDashboard', needsAuthentication: true },
  { label: 'Enforcement', to: '/list', section: 'enforcement', needsAuthentication: false },
  { label: 'Configure Rates', to: '/rate-selection', section: 'rateSelection', needsAuthentication: true },
  { label: 'Rate Changes', to: '/rates', section: 'rateChanges', needsAuthentication: true },
  { label: 'Locations', to: '/locations', section: 'locations', needsAuthentication: true },
  { label: 'Promo Codes', to: '/promo-codes', section: 'promoCodes', needsAuthentication: true },
  { label: 'Transactions', to: '/refund-portal', section: 'refundPortal', needsAuthentication: true },
  { label: 'Users', to: '/user-config', section: 'users', needsAuthentication: true },
  { label: 'User Roles', to: '/role-Config', section: 'userRoles', needsAuthentication: true },
  { label: 'Enforcement Lite', to: '/enforcement-lite', section: 'enforcementLite', needsAuthentication: false },
  { label: 'Mailing', to: '/mailing', section: 'mailing', needsAuthentication: false },
  { label: 'Database Copy', to: '/database-copy', section: 'databaseCopy', needsAuthentication: false },
] as const satisfies readonly { label: string; to: string; section: Section; needsAuthentication: boolean }[];

export type NavigationEntry = (typeof NAVIGATION)[number];

/** The sidebar entries a user sees: those whose route they may open, less the ones that need a confirmed session. */
export function visibleNavigation(ctx: AccessContext & { authEnabled: boolean }): NavigationEntry[] {
  return NAVIGATION.filter((entry) => canOpen(entry.section, ctx) && (ctx.authEnabled || !entry.needsAuthentication));
}

/**
 * Where a freshly signed-in user lands when no page asked for them: /list for a user whose only section is
 * Enforcement (an officer in the field wants the search, not a one-entry list), else `/` (spec §2 decides what `/`
 * shows). Enforcement is offered with or without a confirmed session, so the rule is the same offline.
 */
export function homePath(ctx: AccessContext): string {
  const entries = visibleNavigation({ ...ctx, authEnabled: true });
  return entries.length === 1 && entries[0]!.section === 'enforcement' ? entries[0]!.to : '/';
}
