import type { StaffUser, UserStatus } from '../../../../contract/users';
import { formatDateTime } from '../../../../ui/format';
import { viewerTimeZone } from '../../../../ui/zoned-time';

export const statusLabel = (status: UserStatus) => (status === 'active' ? 'Active' : 'Disabled');

/** What a staff member's role covers, in words. */
export function locationsLabel(user: StaffUser): string {
  if (user.role_superuser) return 'All locations';
  return user.location_names.length === 0 ? '—' : user.location_names.join(', ');
}

/**
 * The list's short form: the first location and how many more ("Chicago Loop, +3 more"), so a row stays one line at
 * 1280 px; the full list is `locationsLabel`, in the cell's title, for screen readers and in the edit panel.
 */
export function locationsSummary(user: StaffUser): string {
  if (user.role_superuser || user.location_names.length <= 1) return locationsLabel(user);
  return `${user.location_names[0]}, +${user.location_names.length - 1} more`;
}

/** A staff member's sign-in is no one location's: it is shown on the viewer's clock, with the zone's abbreviation. */
export function lastSignInLabel(user: StaffUser): string {
  if (user.last_sign_in_at) return formatDateTime(user.last_sign_in_at, viewerTimeZone());
  return user.linked ? 'Not yet' : 'Invited, not signed in yet';
}

export const USER_FIELD_LABELS: Readonly<Record<string, string>> = {
  display_name: 'Name',
  role_id: 'Role',
  status: 'Status',
  email: 'E-mail',
  identity_uid: 'Sign-in account',
};
