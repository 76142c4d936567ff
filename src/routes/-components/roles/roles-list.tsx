import { useMemo, useState, type FormEvent } from 'react';
import type { Role, RoleListQuery } from '../../../contract/roles';
import { describeRole } from '../../../permissions/role-matrix';
import type { DataColumn, SortState } from '../../../ui/data-table';
import { FormField } from '../../../ui/form-field';
import { ListResults, type ListResult } from '../../../ui/list-results';

const DEFAULT_SORT: SortState = { key: 'name', dir: 'asc' };

export interface RolesListProps {
  search: RoleListQuery;
  result: ListResult<Role> | null;
  busy: boolean;
  locationName: (id: number) => string;
  onOpen: (role: Role) => void;
  openLabel: string;
  onSearch: (update: (current: RoleListQuery) => RoleListQuery) => void;
  onRetry: () => void;
}

/** Roles with how many staff hold each and what they grant, in words; each opens in the editor. */
export function RolesList(props: RolesListProps) {
  const { search, result, onSearch, locationName, onOpen, openLabel } = props;
  const columns = useMemo<DataColumn<Role>[]>(
    () => [
      { id: 'name', header: 'Role', sortable: true, alwaysShown: true, cell: (role) => role.name },
      { id: 'user_count', header: 'Staff holding it', sortable: true, numeric: true, firstDirection: 'desc', cell: (role) => role.user_count.toLocaleString('en-US') },
      {
        id: 'summary',
        header: 'Grants',
        cell: (role) => describeRole(role.permissions, locationName).join('. ') || 'Nothing',
      },
      {
        id: 'actions',
        header: 'Actions',
        alwaysShown: true,
        cell: (role) => (
          <button type="button" className="button" aria-label={`${openLabel} ${role.name}`} onClick={() => onOpen(role)}>
            {openLabel}
          </button>
        ),
      },
    ],
    [locationName, onOpen, openLabel],
  );
  return (
    <>
      <RoleSearch search={search} onSearch={onSearch} />
      <ListResults
        result={result}
        search={search}
        onSearch={onSearch}
        onRetry={props.onRetry}
        busy={props.busy}
        noun={{ one: 'role', other: 'roles' }}
        caption="Roles"
        columns={columns}
        rowKey={(role) => String(role.role_id)}
        defaultSort={DEFAULT_SORT}
        columnChoiceKey="roles"
        filters={search.q ? [{ label: 'Search', value: `“${search.q}”` }] : []}
        whenUnfiltered={<p>No roles yet.</p>}
      />
    </>
  );
}

function RoleSearch({ search, onSearch }: Pick<RolesListProps, 'search' | 'onSearch'>) {
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
    <form role="search" aria-label="Filter roles" className="filter-form" onSubmit={submit}>
      <FormField label="Role name">
        {(control) => (
          <input {...control} type="search" className="input" value={q} maxLength={100} onChange={(event) => setQ(event.target.value)} />
        )}
      </FormField>
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}
