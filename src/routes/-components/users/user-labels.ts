import type { StaffUser, UserStatus } from '../../../contract/users';
import { formatDateTime } from '../../../ui/format';

export const statusLabel = (status: UserStatus) => (status === 'active' ? 'Active' : 'Disabled');

/** What a staff member's role covers, in words. */
export function locationsLabel(user: StaffUser): string {
  if (user.role_superuser) return 'All locations';
  return user.location_names.length === 0 ? '—' : user.location_names.join(', ');
}

export function lastSignInLabel(user: StaffUser): string {
  if (user.last_sign_in_at) return formatDateTime(user.last_sign_in_at, 'UTC');
  return user.linked ? 'Not yet' : 'Invited, not signed in yet';
}

export const USER_FIELD_LABELS: Readonly<Record<string, string>> = {
  display_name: 'Name',
  role_id: 'Role',
  status: 'Status',
  email: 'E-mail',
  identity_uid: 'Sign-in account',
};
