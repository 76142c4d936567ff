import type { Location } from '../../../../contract/locations';
import type { HistoryFieldTypes } from '../../../../ui/history-values';

/** How the Locations screens name a location's fields (list headers, form labels, History). */
export const LOCATION_FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  address: 'Address',
  time_zone: 'Time zone',
  capacity: 'Spaces',
  status: 'Status',
  enforcement_enabled: 'Enforcement',
  grace_period_minutes: 'Grace period',
};

export const statusLabel = (status: Location['status']) => (status === 'active' ? 'Active' : 'Inactive');
export const enforcementLabel = (enabled: boolean) => (enabled ? 'On' : 'Off');
export const graceLabel = (minutes: number) => `${minutes} min`;

/** How History reads a location's fields (src/ui/history-values.ts), in the words of the screens above. */
export const LOCATION_HISTORY_TYPES: HistoryFieldTypes = {
  status: { enum: { active: statusLabel('active'), inactive: statusLabel('inactive') } },
  enforcement_enabled: { yes: enforcementLabel(true), no: enforcementLabel(false) },
  grace_period_minutes: 'minutes',
  capacity: 'count',
};
