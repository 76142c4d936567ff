import { canOpen, sectionAccess, type AccessContext, type Section } from './route-access';

interface NavigationShape {
  label: string;
  to: string;
  section: Section;
  /** Only `false` is written: an entry needs a confirmed session unless it says otherwise. */
  needsAuthentication?: false;
  activeUnder?: readonly string[];
}

/**
 * The console's sections in sidebar order (spec §2), each with the route it opens and the rule that guards it.
 * `needsAuthentication`: spec §6 says entries also require authentication to be enabled, i.e. a session the
 * identity provider and the server confirmed in this visit; a session restored from the local cache while offline
 * (officers) offers only what works offline (docs/decisions/0009-authentication-enabled.md). `activeUnder`: the other
 * addresses of the entry's screens, where it shows as the current one (Transactions on the tickets and on a
 * transaction).
 */
export const NAVIGATION = [
  { label: 'Real Time Dashboard', to: '/', section: 'realTimeDashboard' },
  { label: 'Settled Dashboard', to: '/settled-dashboard', section: 'settledDashboard' },
  { label: 'Enforcement', to: '/list', section: 'enforcement', needsAuthentication: false, activeUnder: ['/citations'] },
  { label: 'Configure Rates', to: '/rate-selection', section: 'rateSelection', activeUnder: ['/rate-config'] },
  { label: 'Rate Changes', to: '/rates', section: 'rateChanges' },
  { label: 'Locations', to: '/locations', section: 'locations', activeUnder: ['/add-location', '/edit-location'] },
  { label: 'Promo Codes', to: '/promo-codes', section: 'promoCodes' },
  // The transaction search, as the entry's name says; the refund tickets are a tab beside it.
  {
    label: 'Transactions',
    to: '/refund-portal/transactions',
    section: 'refundPortal',
    activeUnder: ['/refund-portal', '/transactions'],
  },
  { label: 'Users', to: '/user-config', section: 'users' },
  { label: 'User Roles', to: '/role-Config', section: 'userRoles' },
  { label: 'Enforcement Lite', to: '/enforcement-lite', section: 'enforcementLite', needsAuthentication: false },
  { label: 'Mailing', to: '/mailing', section: 'mailing', needsAuthentication: false },
  { label: 'Database Copy', to: '/database-copy', section: 'databaseCopy', needsAuthentication: false },
] as const satisfies readonly NavigationShape[];

export type NavigationEntry = (typeof NAVIGATION)[number];

/** The sidebar entries a user sees: those whose route they may open, less the ones that need a confirmed session. */
export function visibleNavigation(ctx: AccessContext & { authEnabled: boolean }): NavigationEntry[] {
  return NAVIGATION.filter((entry: NavigationShape) => canOpen(entry.section, ctx) && (ctx.authEnabled || entry.needsAuthentication === false));
}

/**
 * Where a freshly signed-in user lands when no page asked for them: the section itself for a user whose permissions
 * allow exactly one (an officer wants the plate search, a promo-code clerk the promo codes, not a page listing one
 * link), else `/` (spec §2 decides what `/` shows). Entries guarded by the same rule are one section: Configure Rates
 * and Rate Changes both need rate settings, and such a user lands on the first. The rule ignores whether the session
 * is confirmed, so it is the same offline.
 */
export function homePath(ctx: AccessContext): string {
  const [first, ...others] = visibleNavigation({ ...ctx, authEnabled: true });
  if (!first) return '/';
  const oneSection = others.every((entry) => sectionAccess[entry.section] === sectionAccess[first.section]);
  return oneSection ? first.to : '/';
}
