import type { Section } from './route-access';

/** The console's sections in sidebar order (spec §2), each with the route it opens and the rule that guards it. */
export const NAVIGATION = [
  { label: 'Real Time Dashboard', to: '/', section: 'realTimeDashboard' },
  { label: 'Settled Dashboard', to: '/settled-dashboard', section: 'settledDashboard' },
  { label: 'Enforcement', to: '/list', section: 'enforcement' },
  { label: 'Configure Rates', to: '/rate-selection', section: 'rateSelection' },
  { label: 'Rate Changes', to: '/rates', section: 'rateChanges' },
  { label: 'Locations', to: '/locations', section: 'locations' },
  { label: 'Promo Codes', to: '/promo-codes', section: 'promoCodes' },
  { label: 'Transactions', to: '/refund-portal', section: 'refundPortal' },
  { label: 'Users', to: '/user-config', section: 'users' },
  { label: 'User Roles', to: '/role-Config', section: 'userRoles' },
  { label: 'Enforcement Lite', to: '/enforcement-lite', section: 'enforcementLite' },
  { label: 'Mailing', to: '/mailing', section: 'mailing' },
  { label: 'Database Copy', to: '/database-copy', section: 'databaseCopy' },
] as const satisfies readonly { label: string; to: string; section: Section }[];

export type NavigationEntry = (typeof NAVIGATION)[number];
