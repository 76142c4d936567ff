import type { LiteLocationStatus, LiteOfficerStatus } from '../../../../contract/enforcement-lite-search';
import type { HistoryFieldTypes } from '../../../../ui/history-values';

/** How the Enforcement Lite screens name fields (list headers, form labels, History). */
export const LITE_LOCATION_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  address: 'Address',
  time_zone: 'Time zone',
  capacity: 'Spaces',
  grace_period_minutes: 'Grace period',
  operator_name: 'Operator',
  status: 'Status',
  officer_count: 'Officers',
};
export const LITE_OFFICER_LABELS: Readonly<Record<string, string>> = {
  email: 'E-mail',
  display_name: 'Name',
  location_ids: 'Lite locations',
  status: 'Status',
  last_sign_in_at: 'Last sign-in',
};

export const liteLocationStatusLabel = (status: LiteLocationStatus) => (status === 'active' ? 'Active' : 'Inactive');
export const officerStatusLabel = (status: LiteOfficerStatus) => (status === 'active' ? 'Active' : 'Disabled');

/** How History reads the fields (src/ui/history-values.ts); an officer's locations by name. */
export const LITE_HISTORY_TYPES: HistoryFieldTypes = {
  status: { enum: { active: 'Active', inactive: 'Inactive', disabled: 'Disabled' } },
  grace_period_minutes: 'minutes',
  capacity: 'count',
  officer_count: 'count',
  location_ids: 'locations',
  last_sign_in_at: 'instant',
};
