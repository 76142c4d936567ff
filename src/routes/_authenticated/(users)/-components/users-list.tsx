import { useMemo } from 'react';
import { USER_STATUSES, type StaffUser, type UserListQuery } from '../../../../contract/users';
import type { DataColumn } from '../../../../ui/data-table';
import { TextAndStatusFilters } from '../../../../ui/filter-form';
import { ListScreen, textAndStatusInForce, type ListExport, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';
import type { ActiveFilter } from '../../../../ui/list-states';
import { lastSignInLabel, locationsLabel, locationsSummary, statusLabel } from './user-labels';

const USERS_LIST: ListIdentity<StaffUser> = {
  noun: 'staff member',
  caption: 'Staff members',
  rowKey: (user) => String(user.user_id),
  columnChoiceKey: 'users',
};

export interface UsersListProps extends ListScreenState<StaffUser, UserListQuery> {
  /** Whether the row gets an Edit button (users edit, and not the signed-in user's own row). */
  canEdit: (user: StaffUser) => boolean;
  onEdit: (user: StaffUser) => void;
  onExport: ListExport;
}

function activeFilters(search: UserListQuery): ActiveFilter[] {
  const filters = textAndStatusInForce(search, statusLabel);
  if (search.roleId !== undefined) filters.push({ label: 'Role', value: `#${search.roleId}` });
  return filters;
}

/** The staff list: search, status filter, sort, pages and CSV; Edit where allowed. */
export function UsersList(props: UsersListProps) {
  const { search, onSearch, canEdit, onEdit } = props;
  // Column priorities (the kit's): all seven fit the 988 px a 1280 px window leaves beside the open sidebar
  // (measured in Chromium with long demo values); on a phone only Name, Role and Edit stay, the rest in Columns.
  const columns = useMemo<DataColumn<StaffUser>[]>(
    () => [
      { id: 'display_name', header: 'Name', sortable: true, alwaysShown: true, cell: (user) => user.display_name ?? '—' },
      { id: 'email', header: 'E-mail', sortable: true, sortedByDefault: true, priority: 2, cell: (user) => <Breakable text={user.email} /> },
      { id: 'role', header: 'Role', sortable: true, cell: (user) => <Breakable text={user.role_name ?? 'No role'} /> },
      { id: 'locations', header: 'Locations', priority: 2, cell: (user) => <LocationsText user={user} /> },
      { id: 'status', header: 'Status', sortable: true, priority: 2, cell: (user) => statusLabel(user.status) },
      {
        id: 'last_sign_in_at',
        header: 'Last sign-in',
        sortable: true,
        firstDirection: 'desc',
        priority: 2,
        cell: (user) => <LastSignIn user={user} />,
      },
      {
        id: 'actions',
        header: 'Actions',
        actions: true,
        cell: (user) =>
          canEdit(user) ? (
            <button type="button" className="button" aria-label={`Edit ${user.display_name ?? user.email}`} onClick={() => onEdit(user)}>
              Edit
            </button>
          ) : null,
      },
    ],
    [canEdit, onEdit],
  );
  return (
    <ListScreen
      list={props}
      identity={USERS_LIST}
      filters={activeFilters(search)}
      filterForm={
        <TextAndStatusFilters label="Filter staff" textLabel="Name or e-mail" search={search} onSearch={onSearch} statuses={USER_STATUSES} statusLabel={statusLabel} />
      }
      columns={columns}
    />
  );
}

/**
 * Text without spaces (an e-mail, a role named "Promotions–Seattle-weekends") may break after a dot, hyphen, underscore
 * or colon and before an "@", never mid-word: a long one takes two short lines, not a wide column.
 */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[.\-_:])|(?=@)/);
  if (parts.length === 1) return text;
  return parts.map((part, index) => (
    <span key={index}>
      {index > 0 && <wbr />}
      {part}
    </span>
  ));
}

/** "Chicago Loop, +3 more" on one line (a long first name cut short); the whole list in the title and for screen readers. */
function LocationsText({ user }: { user: StaffUser }) {
  const full = locationsLabel(user);
  const summary = locationsSummary(user);
  if (summary === full) return full;
  const more = summary.slice(summary.lastIndexOf(', +'));
  return (
    <span className="user-locations" title={full}>
      <span className="visually-hidden">{full}</span>
      <span className="user-locations-first" aria-hidden="true">
        {user.location_names[0]}
      </span>
      <span aria-hidden="true">{more}</span>
    </span>
  );
}

/** The date and the time each on one line; the two may stack in a narrow column. */
function LastSignIn({ user }: { user: StaffUser }) {
  const text = lastSignInLabel(user);
  if (!user.last_sign_in_at) return text;
  const split = text.search(/, \d{1,2}:\d{2}/);
  return (
    <time dateTime={user.last_sign_in_at}>
      <span className="nowrap-part">{split < 0 ? text : `${text.slice(0, split)},`}</span>
      {split >= 0 && (
        <>
          {' '}
          <span className="nowrap-part">{text.slice(split + 2)}</span>
        </>
      )}
    </time>
  );
}
