import { useMemo } from 'react';
import type { Role, RoleListQuery } from '../../../../contract/roles';
import { holdings } from '../../../../permissions/all-locations';
import { describeRole } from '../../../../permissions/role-matrix';
import type { DataColumn } from '../../../../ui/data-table';
import { FilterForm, filterChange, TextFilter, useTextFilter } from '../../../../ui/filter-form';
import { ListScreen, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';

const ROLES_LIST: ListIdentity<Role> = {
  noun: 'role',
  caption: 'Roles',
  rowKey: (role) => String(role.role_id),
};

export interface RolesListProps extends ListScreenState<Role, RoleListQuery> {
  locationName: (id: number) => string;
  onOpen: (role: Role) => void;
  openLabel: string;
}

/** Roles with how many staff hold each and what they grant, in words; each opens in the editor. */
export function RolesList(props: RolesListProps) {
  const { search, onSearch, locationName, onOpen, openLabel } = props;
  const columns = useMemo<DataColumn<Role>[]>(
    () => [
      { id: 'name', header: 'Role', sortable: true, sortedByDefault: true, alwaysShown: true, cell: (role) => role.name },
      { id: 'user_count', header: 'Staff holding it', sortable: true, numeric: true, firstDirection: 'desc', cell: (role) => role.user_count.toLocaleString('en-US') },
      {
        id: 'summary',
        header: 'Grants',
        cell: (role) => describeRole(holdings(role.permissions, role.all_locations, []), locationName).join('. ') || 'Nothing',
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
    <ListScreen
      list={props}
      identity={ROLES_LIST}
      filters={search.q ? [{ label: 'Search', value: `“${search.q}”` }] : []}
      filterForm={<RoleSearch search={search} onSearch={onSearch} />}
      columns={columns}
    />
  );
}

function RoleSearch({ search, onSearch }: Pick<RolesListProps, 'search' | 'onSearch'>) {
  const text = useTextFilter(search.q);
  return (
    <FilterForm label="Filter roles" onSubmit={() => filterChange(onSearch, { q: text.value })}>
      <TextFilter label="Role name" filter={text} maxLength={100} />
    </FilterForm>
  );
}
