import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import { LOCATION_STATUSES, type Location, type LocationListQuery } from '../../../contract/locations';
import { CsvExportButton } from '../../../ui/csv-export-button';
import type { DataColumn, SortState } from '../../../ui/data-table';
import { FormField } from '../../../ui/form-field';
import { ListFilters } from '../../../ui/list-filters';
import { ListResults, type ListResult } from '../../../ui/list-results';
import type { ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { enforcementLabel, graceLabel, LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

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
      { id: 'address', header: LABELS.address!, priority: 2, cell: (location) => location.address },
      { id: 'time_zone', header: LABELS.time_zone!, sortable: true, priority: 2, cell: (location) => location.time_zone },
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
        priority: 3,
        cell: (location) => enforcementLabel(location.enforcement_enabled),
      },
      {
        id: 'grace_period_minutes',
        header: LABELS.grace_period_minutes!,
        sortable: true,
        numeric: true,
        priority: 3,
        cell: (location) => graceLabel(location.grace_period_minutes),
      },
      {
        id: 'actions',
        header: 'Actions',
        actions: true,
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
      <ListFilters count={filters.length}>
        <LocationFilters search={search} onSearch={onSearch} />
      </ListFilters>
      <ListResults
        result={result}
        search={search}
        onSearch={onSearch}
        onRetry={props.onRetry}
        busy={props.busy}
        noun={{ one: 'location', other: 'locations' }}
        caption="Locations you can view"
        columns={columns}
        rowKey={(location) => String(location.location_id)}
        defaultSort={DEFAULT_SORT}
        columnChoiceKey="locations"
        filters={filters}
        whenUnfiltered={<p>No locations are assigned to you yet.</p>}
      />
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
