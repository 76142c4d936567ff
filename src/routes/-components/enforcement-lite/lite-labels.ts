import type { LiteLocationStatus, LiteOfficerStatus } from '../../../contract/enforcement-lite-search';

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

/** A field's value as the screens show it, for History's before → after. */
export function liteValueText(field: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (field === 'status' && typeof value === 'string') {
    return value === 'active' ? 'Active' : value === 'inactive' ? 'Inactive' : 'Disabled';
  }
  if (field === 'grace_period_minutes' && typeof value === 'number') return `${value} min`;
  if (field === 'capacity' && typeof value === 'number') return value.toLocaleString('en-US');
  if (field === 'location_ids' && Array.isArray(value)) return value.length === 0 ? '—' : value.map((id) => `#${String(id)}`).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
