import type { Location } from '../../../contract/locations';

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

/** A location field's value as the screens show it, for History's before → after. */
export function locationValueText(field: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (field === 'status' && (value === 'active' || value === 'inactive')) return statusLabel(value);
  if (field === 'enforcement_enabled' && typeof value === 'boolean') return enforcementLabel(value);
  if (field === 'grace_period_minutes' && typeof value === 'number') return graceLabel(value);
  if (field === 'capacity' && typeof value === 'number') return value.toLocaleString('en-US');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
