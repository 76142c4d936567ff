import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { LOCATION_STATUSES, type Location, type LocationListQuery } from '../../../../contract/locations';
import { CsvExportButton } from '../../../../ui/csv-export-button';
import type { DataColumn, SortState } from '../../../../ui/data-table';
import { TextAndStatusFilters } from '../../../../ui/filter-form';
import { ListFilters } from '../../../../ui/list-filters';
import { listScreenState, ListResults, type ListScreenState } from '../../../../ui/list-results';
import type { ActiveFilter } from '../../../../ui/list-states';
import { SectionPage } from '../../../../ui/section-page';
import { enforcementLabel, graceLabel, LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

const DEFAULT_SORT: SortState = { key: 'name', dir: 'asc' };

export interface LocationsListProps extends ListScreenState<Location, LocationListQuery> {
  canAdd: boolean;
  canEdit: (locationId: number) => boolean;
  /**
   * Changes the URL's search (filters, sort, page), from the URL's current one: the route loads what it names.
   * From the current URL, not this render's `search`: a change made while the previous one still loads keeps it.
   */
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
}

function activeFilters(search: LocationListQuery): ActiveFilter[] {
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Search', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: statusLabel(search.status) });
  return filters;
}

/** The locations the user may view: search, status filter, sort, pages, CSV; add and edit where allowed. */
export function LocationsList(props: LocationsListProps) {
  const { search, onSearch } = props;
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
        <TextAndStatusFilters label="Filter locations" textLabel="Name or address" search={search} onSearch={onSearch} statuses={LOCATION_STATUSES} statusLabel={statusLabel} />
      </ListFilters>
      <ListResults
        {...listScreenState(props)}
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
