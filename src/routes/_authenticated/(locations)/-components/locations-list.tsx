import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { LOCATION_STATUSES, type Location, type LocationListQuery } from '../../../../contract/locations';
import type { DataColumn } from '../../../../ui/data-table';
import { TextAndStatusFilters } from '../../../../ui/filter-form';
import { ListScreen, textAndStatusInForce, type ListExport, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';
import { enforcementLabel, graceLabel, LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

const LOCATIONS_LIST: ListIdentity<Location> = {
  title: 'Locations',
  noun: 'location',
  caption: 'Locations you can view',
  rowKey: (location) => String(location.location_id),
  whenUnfiltered: <p>No locations are assigned to you yet.</p>,
};

export interface LocationsListProps extends ListScreenState<Location, LocationListQuery> {
  canAdd: boolean;
  canEdit: (locationId: number) => boolean;
  onExport: ListExport;
}

/** The locations the user may view: search, status filter, sort, pages, CSV; add and edit where allowed. */
export function LocationsList(props: LocationsListProps) {
  const { search, onSearch } = props;
  const filters = textAndStatusInForce(search, statusLabel);
  const { canEdit } = props;

  const columns = useMemo<DataColumn<Location>[]>(
    () => [
      {
        id: 'name',
        header: LABELS.name!,
        sortable: true,
        sortedByDefault: true,
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
    <ListScreen
      list={props}
      identity={LOCATIONS_LIST}
      actions={
        props.canAdd && (
          <Link to="/add-location" className="button primary">
            Add location
          </Link>
        )
      }
      filters={filters}
      filterForm={
        <TextAndStatusFilters label="Filter locations" textLabel="Name or address" search={search} onSearch={onSearch} statuses={LOCATION_STATUSES} statusLabel={statusLabel} />
      }
      columns={columns}
    />
  );
}
