import { useMemo, useState, type FormEvent } from 'react';
import type { ListResult } from '../../../app/list-route';
import { USER_STATUSES, type StaffUser, type UserListQuery } from '../../../contract/users';
import { CsvExportButton } from '../../../ui/csv-export-button';
import { DataTable, type DataColumn, type SortState } from '../../../ui/data-table';
import { FormField } from '../../../ui/form-field';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from '../../../ui/list-states';
import { urlPaging } from '../url-paging';
import { lastSignInLabel, locationsLabel, statusLabel } from './user-labels';

const DEFAULT_SORT: SortState = { key: 'email', dir: 'asc' };

export interface UsersListProps {
  search: UserListQuery;
  result: ListResult<StaffUser> | null;
  busy: boolean;
  /** Whether the row gets an Edit button (users edit, and not the signed-in user's own row). */
  canEdit: (user: StaffUser) => boolean;
  onEdit: (user: StaffUser) => void;
  onSearch: (update: (current: UserListQuery) => UserListQuery) => void;
  onRetry: () => void;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
}

function activeFilters(search: UserListQuery): ActiveFilter[] {
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Search', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: statusLabel(search.status) });
  if (search.roleId !== undefined) filters.push({ label: 'Role', value: `#${search.roleId}` });
  return filters;
}

/** The staff list: search, status filter, sort, pages and CSV; Edit where allowed. */
export function UsersList(props: UsersListProps) {
  const { search, result, onSearch, canEdit, onEdit } = props;
  const sort: SortState = search.sort ? { key: search.sort, dir: search.dir ?? 'asc' } : DEFAULT_SORT;
  const columns = useMemo<DataColumn<StaffUser>[]>(
    () => [
      { id: 'display_name', header: 'Name', sortable: true, alwaysShown: true, cell: (user) => user.display_name ?? '—' },
      { id: 'email', header: 'E-mail', sortable: true, cell: (user) => user.email },
      { id: 'role', header: 'Role', sortable: true, cell: (user) => user.role_name ?? 'No role' },
      { id: 'locations', header: 'Locations', cell: locationsLabel },
      { id: 'status', header: 'Status', sortable: true, cell: (user) => statusLabel(user.status) },
      { id: 'last_sign_in_at', header: 'Last sign-in (UTC)', sortable: true, firstDirection: 'desc', cell: lastSignInLabel },
      {
        id: 'actions',
        header: 'Actions',
        alwaysShown: true,
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
    <>
      <UserFilters search={search} onSearch={onSearch} />
      <div className="list-toolbar">
        <CsvExportButton onExport={props.onExport} />
      </div>
      {result === null ? (
        <TableSkeleton columns={7} label="Loading staff…" />
      ) : !result.ok ? (
        <LoadError message={result.message} onRetry={props.onRetry} />
      ) : result.page.rows.length === 0 ? (
        <EmptyState
          noun="staff members"
          filters={activeFilters(search)}
          onClearFilters={() => onSearch((current) => ({ sort: current.sort, dir: current.dir, pageSize: current.pageSize }))}
          whenUnfiltered={<p>No staff members yet.</p>}
        />
      ) : (
        <DataTable
          caption="Staff members"
          columns={columns}
          rows={result.page.rows}
          rowKey={(user) => String(user.user_id)}
          sort={sort}
          onSortChange={(next) =>
            onSearch((current) => ({ ...current, sort: next.key as UserListQuery['sort'], dir: next.dir, page: undefined }))
          }
          columnChoiceKey="users"
          busy={props.busy}
          paging={urlPaging(result.page, { one: 'staff member', other: 'staff members' }, onSearch)}
        />
      )}
    </>
  );
}

function UserFilters({ search, onSearch }: Pick<UsersListProps, 'search' | 'onSearch'>) {
  const [q, setQ] = useState(search.q ?? '');
  const [shownQ, setShownQ] = useState(search.q);
  if (shownQ !== search.q) {
    setShownQ(search.q);
    setQ(search.q ?? '');
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch((current) => ({ ...current, q: q.trim() || undefined, page: undefined }));
  };
  return (
    <form role="search" aria-label="Filter staff" className="filter-form" onSubmit={submit}>
      <FormField label="Name or e-mail">
        {(control) => (
          <input {...control} type="search" className="input" value={q} maxLength={100} onChange={(event) => setQ(event.target.value)} />
        )}
      </FormField>
      <FormField label="Status">
        {(control) => (
          <select
            {...control}
            className="select"
            value={search.status ?? ''}
            onChange={(event) =>
              onSearch((current) => ({
                ...current,
                q: q.trim() || undefined,
                status: (event.target.value || undefined) as UserListQuery['status'],
                page: undefined,
              }))
            }
          >
            <option value="">Any status</option>
            {USER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}
