import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import type { ListResult } from '../../../app/list-route';
import { LOCATION_STATUSES, type Location, type LocationListQuery } from '../../../contract/locations';
import { CsvExportButton } from '../../../ui/csv-export-button';
import { DataTable, type DataColumn, type SortState } from '../../../ui/data-table';
import { FormField } from '../../../ui/form-field';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { enforcementLabel, graceLabel, LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';
import { urlPaging } from '../url-paging';

const DEFAULT_SORT: SortState = { key: 'name', dir: 'asc' };

export interface LocationsListProps {
  search: LocationListQuery;
  /** The page, why it could not be had, or null while it loads (the route's pending screen). */
  result: ListResult<Location> | null;
  canAdd: boolean;
  canEdit: (locationId: number) => boolean;
  /**
   * Changes the URL's search (filters, sort, page), from the URL's current one: the route loads what it names.
   * From the current URL, not this render's `search`: a change made while the previous one still loads keeps it.
   */
  onSearch: (update: (current: LocationListQuery) => LocationListQuery) => void;
  onRetry: () => void;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
  /** A newer page is loading. */
  busy: boolean;
}

function activeFilters(search: LocationListQuery): ActiveFilter[] {
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Search', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: statusLabel(search.status) });
  return filters;
}

/** The locations the user may view: search, status filter, sort, pages, CSV; add and edit where allowed. */
export function LocationsList(props: LocationsListProps) {
  const { search, result, onSearch } = props;
  const filters = activeFilters(search);
  const sort: SortState = search.sort ? { key: search.sort, dir: search.dir ?? 'asc' } : DEFAULT_SORT;
  const { canEdit } = props;

  const columns = useMemo<DataColumn<Location>[]>(
    () => [
      {
        id: 'name',
        header: LABELS.name!,
        sortable: true,
        alwaysShown: true,
        cell: (location) => (
          <Link to="/edit-location/$locationId" params={{ locationId: String(location.location_id) }}>
            {location.name}
          </Link>
        ),
      },
      { id: 'address', header: LABELS.address!, cell: (location) => location.address },
      { id: 'time_zone', header: LABELS.time_zone!, sortable: true, cell: (location) => location.time_zone },
      {
        id: 'capacity',
        header: LABELS.capacity!,
        sortable: true,
        numeric: true,
        firstDirection: 'desc',
        cell: (location) => location.capacity.toLocaleString('en-US'),
      },
      { id: 'status', header: LABELS.status!, sortable: true, cell: (location) => statusLabel(location.status) },
      {
        id: 'enforcement_enabled',
        header: LABELS.enforcement_enabled!,
        sortable: true,
        cell: (location) => enforcementLabel(location.enforcement_enabled),
      },
      {
        id: 'grace_period_minutes',
        header: LABELS.grace_period_minutes!,
        sortable: true,
        numeric: true,
        cell: (location) => graceLabel(location.grace_period_minutes),
      },
      {
        id: 'actions',
        header: 'Actions',
        alwaysShown: true,
        cell: (location) =>
          canEdit(location.location_id) ? (
            <Link
              to="/edit-location/$locationId"
              params={{ locationId: String(location.location_id) }}
              aria-label={`Edit ${location.name}`}
            >
              Edit
            </Link>
          ) : null,
      },
    ],
    [canEdit],
  );

  return (
    <SectionPage title="Locations">
      <div className="list-toolbar">
        {props.canAdd && (
          <Link to="/add-location" className="button primary">
            Add location
          </Link>
        )}
        <CsvExportButton onExport={props.onExport} />
      </div>
      <LocationFilters search={search} onSearch={onSearch} />
      {result === null ? (
        <TableSkeleton columns={7} label="Loading locations…" />
      ) : !result.ok ? (
        <LoadError message={result.message} onRetry={props.onRetry} />
      ) : result.page.rows.length === 0 ? (
        <EmptyState
          noun="locations"
          filters={filters}
          onClearFilters={() => onSearch((current) => ({ sort: current.sort, dir: current.dir, pageSize: current.pageSize }))}
          whenUnfiltered={<p>No locations are assigned to you yet.</p>}
        />
      ) : (
        <DataTable
          caption="Locations you can view"
          columns={columns}
          rows={result.page.rows}
          rowKey={(location) => String(location.location_id)}
          sort={sort}
          onSortChange={(next) =>
            onSearch((current) => ({ ...current, sort: next.key as LocationListQuery['sort'], dir: next.dir, page: undefined }))
          }
          columnChoiceKey="locations"
          busy={props.busy}
          paging={urlPaging(result.page, { one: 'location', other: 'locations' }, onSearch)}
        />
      )}
    </SectionPage>
  );
}

/** The text search and status filter; the search applies on submit, a status choice at once. */
function LocationFilters({ search, onSearch }: Pick<LocationsListProps, 'search' | 'onSearch'>) {
  const [q, setQ] = useState(search.q ?? '');
  // A new URL (back, forward, "Clear filters") shows its own text.
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
    <form role="search" aria-label="Filter locations" className="filter-form" onSubmit={submit}>
      <FormField label="Name or address">
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
                status: (event.target.value || undefined) as LocationListQuery['status'],
                page: undefined,
              }))
            }
          >
            <option value="">Any status</option>
            {LOCATION_STATUSES.map((status) => (
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
