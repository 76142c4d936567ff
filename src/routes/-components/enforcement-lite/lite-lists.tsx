import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import type { ListResult } from '../../../app/list-route';
import {
  LITE_LOCATION_STATUSES,
  LITE_OFFICER_STATUSES,
  type EnforcementLiteSearch,
  type LiteLocation,
  type LiteOfficer,
} from '../../../contract/enforcement-lite';
import { DataTable, type DataColumn, type SortState } from '../../../ui/data-table';
import { FormField } from '../../../ui/form-field';
import { formatDateTime } from '../../../ui/format';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { urlPaging } from '../url-paging';
import {
  LITE_LOCATION_LABELS as LOCATION,
  LITE_OFFICER_LABELS as OFFICER,
  liteLocationStatusLabel,
  officerStatusLabel,
} from './lite-labels';

export type LiteListResult = { show: 'locations'; result: ListResult<LiteLocation> } | { show: 'officers'; result: ListResult<LiteOfficer> };

export interface LiteListsProps {
  search: EnforcementLiteSearch;
  /** The shown list's page or why not, or null while it loads. */
  list: LiteListResult | null;
  onSearch: (update: (current: EnforcementLiteSearch) => EnforcementLiteSearch) => void;
  onRetry: () => void;
  busy: boolean;
}

const statusText = (status: string) =>
  status === 'active' ? 'Active' : status === 'inactive' ? 'Inactive' : status === 'disabled' ? 'Disabled' : status;

/** The page's two lists, one at a time (`?show=officers`), each searched, filtered, sorted and paged on the server. */
export function LiteLists({ search, list, onSearch, onRetry, busy }: LiteListsProps) {
  const show = search.show ?? 'locations';
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Search', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: statusText(search.status) });
  const clear = () =>
    onSearch((current) => ({ show: current.show, sort: current.sort, dir: current.dir, pageSize: current.pageSize }));
  const result = list && list.show === show ? list.result : null;
  return (
    <SectionPage title="Enforcement Lite">
      <p className="page-subtitle">
        Operators who only enforce: their locations, and officer accounts that may check plates there and nothing else.
      </p>
      <nav aria-label="Enforcement Lite lists" className="list-toolbar">
        <Link to="/enforcement-lite" search={{}} aria-current={show === 'locations' ? 'page' : undefined} className="button">
          Locations
        </Link>
        <Link
          to="/enforcement-lite"
          search={{ show: 'officers' }}
          aria-current={show === 'officers' ? 'page' : undefined}
          className="button"
        >
          Officers
        </Link>
        {show === 'locations' ? (
          <Link to="/enforcement-lite/add-location" className="button primary">
            Add lite location
          </Link>
        ) : (
          <Link to="/enforcement-lite/add-user" className="button primary">
            Add officer
          </Link>
        )}
      </nav>
      <LiteFilters key={show} show={show} search={search} onSearch={onSearch} />
      {result === null ? (
        <TableSkeleton columns={6} label={`Loading ${show}…`} />
      ) : !result.ok ? (
        <LoadError message={result.message} onRetry={onRetry} />
      ) : result.page.rows.length === 0 ? (
        <EmptyState
          noun={show === 'locations' ? 'lite locations' : 'officers'}
          filters={filters}
          onClearFilters={clear}
          whenUnfiltered={<p>{show === 'locations' ? 'No lite locations yet.' : 'No lite officers yet.'}</p>}
        />
      ) : list?.show === 'locations' && list.result.ok ? (
        <LocationsTable page={list.result.page} search={search} onSearch={onSearch} busy={busy} />
      ) : list?.show === 'officers' && list.result.ok ? (
        <OfficersTable page={list.result.page} search={search} onSearch={onSearch} busy={busy} />
      ) : null}
    </SectionPage>
  );
}

interface TableProps<Row> {
  page: import('../../../contract/lists').Paged<Row>;
  search: EnforcementLiteSearch;
  onSearch: LiteListsProps['onSearch'];
  busy: boolean;
}

const sortOf = (search: EnforcementLiteSearch, fallback: string): SortState =>
  search.sort ? { key: search.sort, dir: search.dir ?? 'asc' } : { key: fallback, dir: 'asc' };
const sortChange = (onSearch: LiteListsProps['onSearch']) => (next: SortState) =>
  onSearch((current) => ({ ...current, sort: next.key, dir: next.dir, page: undefined }));

function LocationsTable({ page, search, onSearch, busy }: TableProps<LiteLocation>) {
  const columns = useMemo<DataColumn<LiteLocation>[]>(
    () => [
      {
        id: 'name',
        header: LOCATION.name!,
        sortable: true,
        alwaysShown: true,
        cell: (location) => (
          <Link to="/enforcement-lite/edit-location/$locationId" params={{ locationId: String(location.location_id) }}>
            {location.name}
          </Link>
        ),
      },
      { id: 'operator_name', header: LOCATION.operator_name!, sortable: true, cell: (location) => location.operator_name },
      { id: 'address', header: LOCATION.address!, cell: (location) => location.address },
      { id: 'time_zone', header: LOCATION.time_zone!, sortable: true, hiddenByDefault: true, cell: (location) => location.time_zone },
      {
        id: 'capacity',
        header: LOCATION.capacity!,
        sortable: true,
        numeric: true,
        firstDirection: 'desc',
        cell: (location) => location.capacity.toLocaleString('en-US'),
      },
      { id: 'officer_count', header: LOCATION.officer_count!, numeric: true, cell: (location) => String(location.officer_count) },
      { id: 'status', header: LOCATION.status!, sortable: true, cell: (location) => liteLocationStatusLabel(location.status) },
    ],
    [],
  );
  return (
    <DataTable
      caption="Lite locations"
      columns={columns}
      rows={page.rows}
      rowKey={(location) => String(location.location_id)}
      sort={sortOf(search, 'name')}
      onSortChange={sortChange(onSearch)}
      columnChoiceKey="enforcement-lite-locations"
      busy={busy}
      paging={urlPaging(page, { one: 'lite location', other: 'lite locations' }, onSearch)}
    />
  );
}

function OfficersTable({ page, search, onSearch, busy }: TableProps<LiteOfficer>) {
  const columns = useMemo<DataColumn<LiteOfficer>[]>(
    () => [
      {
        id: 'email',
        header: OFFICER.email!,
        sortable: true,
        alwaysShown: true,
        cell: (officer) => (
          <Link to="/enforcement-lite/edit-user/$userId" params={{ userId: String(officer.user_id) }}>
            {officer.email}
          </Link>
        ),
      },
      { id: 'display_name', header: OFFICER.display_name!, sortable: true, cell: (officer) => officer.display_name ?? '—' },
      { id: 'locations', header: OFFICER.location_ids!, cell: (officer) => officer.location_names.join(', ') || '—' },
      { id: 'status', header: OFFICER.status!, sortable: true, cell: (officer) => officerStatusLabel(officer.status) },
      {
        id: 'last_sign_in_at',
        header: OFFICER.last_sign_in_at!,
        sortable: true,
        firstDirection: 'desc',
        cell: (officer) => (officer.last_sign_in_at ? formatDateTime(officer.last_sign_in_at, 'UTC') : 'Never'),
      },
    ],
    [],
  );
  return (
    <DataTable
      caption="Lite officers"
      columns={columns}
      rows={page.rows}
      rowKey={(officer) => String(officer.user_id)}
      sort={sortOf(search, 'email')}
      onSortChange={sortChange(onSearch)}
      columnChoiceKey="enforcement-lite-officers"
      busy={busy}
      paging={urlPaging(page, { one: 'officer', other: 'officers' }, onSearch)}
    />
  );
}

/** The text search and the status filter of the shown list; the search applies on submit, a status at once. */
function LiteFilters({ show, search, onSearch }: { show: 'locations' | 'officers' } & Pick<LiteListsProps, 'search' | 'onSearch'>) {
  const [q, setQ] = useState(search.q ?? '');
  const [shownQ, setShownQ] = useState(search.q);
  if (shownQ !== search.q) {
    setShownQ(search.q);
    setQ(search.q ?? '');
  }
  const statuses: readonly string[] = show === 'locations' ? LITE_LOCATION_STATUSES : LITE_OFFICER_STATUSES;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch((current) => ({ ...current, q: q.trim() || undefined, page: undefined }));
  };
  return (
    <form role="search" aria-label={`Filter ${show === 'locations' ? 'lite locations' : 'officers'}`} className="filter-form" onSubmit={submit}>
      <FormField label={show === 'locations' ? 'Name, address or operator' : 'E-mail or name'}>
        {(control) => (
          <input {...control} type="search" className="input" value={q} maxLength={100} onChange={(event) => setQ(event.target.value)} />
        )}
      </FormField>
      <FormField label="Status">
        {(control) => (
          <select
            {...control}
            className="select"
            value={search.status && statuses.includes(search.status) ? search.status : ''}
            onChange={(event) =>
              onSearch((current) => ({
                ...current,
                q: q.trim() || undefined,
                status: event.target.value || undefined,
                page: undefined,
              }))
            }
          >
            <option value="">Any status</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {statusText(status)}
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
