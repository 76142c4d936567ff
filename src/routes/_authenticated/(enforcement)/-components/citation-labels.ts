import type { CitationStatus } from '../../../../contract/citation-search';
import type { SectionTab } from '../../../../ui/section-tabs';

export const CITATION_STATUS_LABELS: Readonly<Record<CitationStatus, string>> = { issued: 'Issued', voided: 'Void' };

/** The Enforcement section's screens: the officers' plate search and the office's citations. */
export const ENFORCEMENT_TABS: { label: string; tabs: readonly SectionTab[] } = {
  label: 'Enforcement screens',
  tabs: [
    { label: 'Plate search', to: '/list' },
    { label: 'Citations', to: '/citations/{-$citationId}' },
  ],
};
