import type { SectionTab } from '../../ui/section-tabs';

/**
 * The sections whose screens link to each other with tabs (src/ui/section-tabs.tsx). Here, not in a section's folder,
 * because the screens of one sidebar entry come from more than one folder (refunds/ and transactions/, rates/).
 */
export const REFUND_PORTAL_TABS = {
  label: 'Refund portal',
  tabs: [
    { label: 'Transactions', to: '/refund-portal/transactions' },
    { label: 'Refund Tickets', to: '/refund-portal' },
  ],
} as const satisfies { label: string; tabs: readonly SectionTab[] };

export const RATES_TABS = {
  label: 'Rates',
  tabs: [
    { label: 'Configure Rates', to: '/rate-selection' },
    { label: 'Rate Configuration', to: '/rate-config' },
    { label: 'Rate Changes', to: '/rates' },
  ],
} as const satisfies { label: string; tabs: readonly SectionTab[] };
