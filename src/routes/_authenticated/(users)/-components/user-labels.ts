import type { AssignableRole, StaffUser, UserStatus } from '../../../../contract/users';
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

/**
 * Who else holds a role, in words ("Also held by: Ana Ruiz, Bo Chen and 3 more"), or null when nobody else does: a
 * role is shared, so giving it (and any later change of it) reaches them too. `user` is the person being edited, who
 * is not "also" holding their own role.
 */
export function otherHoldersLabel(role: AssignableRole, user?: Pick<StaffUser, 'role_id' | 'display_name' | 'email'>): string | null {
  let names = role.holders;
  let count = role.holder_count;
  if (user && user.role_id === role.role_id) {
    const self = names.indexOf(user.display_name ?? user.email);
    if (self >= 0) names = names.filter((_, index) => index !== self);
    count -= 1;
  }
  if (count <= 0) return null;
  const more = count - names.length;
  if (names.length === 0) return `Also held by ${count} other staff member${count === 1 ? '' : 's'}.`;
  return `Also held by: ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
}

export const USER_FIELD_LABELS: Readonly<Record<string, string>> = {
  display_name: 'Name',
  role_id: 'Role',
  status: 'Status',
  email: 'E-mail',
  identity_uid: 'Sign-in account',
};
