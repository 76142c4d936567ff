import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { RATE_CHANGE_STATUSES, type RateChangeListQuery, type RateChangeStatus } from '../../../../contract/rate-change-search';
import type { RateChange } from '../../../../contract/rates';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import type { DataColumn } from '../../../../ui/data-table';
import { formatDateTime } from '../../../../ui/format';
import { FilterForm, filterChange, LocationFilter, SelectFilter } from '../../../../ui/filter-form';
import { ListScreen, type ListExport, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';
import type { ActiveFilter } from '../../../../ui/list-states';
import { RATES_TABS } from '../../../-shared/section-tabs';
import type { RateLocationRef } from './rate-location-choice';

const RATE_CHANGES_LIST: ListIdentity<RateChange> = {
  title: 'Rate Changes',
  noun: 'rate change',
  caption: 'Rate changes at your locations',
  rowKey: (change) => String(change.rate_set_id),
  whenUnfiltered: <p>No rate change has been scheduled at your locations yet.</p>,
};

const STATUS_LABELS: Record<RateChangeStatus, string> = { scheduled: 'Scheduled', applied: 'Applied', cancelled: 'Cancelled' };

export interface RateChangesListProps extends ListScreenState<RateChange, RateChangeListQuery> {
  /** The locations whose rates the user may view, for the location filter. */
  locations: readonly RateLocationRef[];
  /** Rate settings edit at this location: may cancel its scheduled changes. */
  canEdit: (locationId: number) => boolean;
  /** Rate settings edit somewhere: may schedule a change. */
  canSchedule: boolean;
  onExport: ListExport;
  /** Cancels a scheduled change; rejects with the reason shown in the dialog. */
  onCancelChange: (change: RateChange) => Promise<void>;
}

const personLabel = (person: RateChange['created_by']) => (person ? (person.name ?? person.email) : '—');

function activeFilters(search: RateChangeListQuery, locations: readonly RateLocationRef[]): ActiveFilter[] {
  const filters: ActiveFilter[] = [];
  if (search.locationId !== undefined) {
    const name = locations.find((location) => location.location_id === search.locationId)?.name;
    filters.push({ label: 'Location', value: name ?? `#${search.locationId}` });
  }
  if (search.status) filters.push({ label: 'Status', value: STATUS_LABELS[search.status] });
  return filters;
}

/** Scheduled, applied and cancelled rate changes of the user's locations: filters, sort, pages, CSV, cancel. */
export function RateChangesList(props: RateChangesListProps) {
  const { search, onSearch, canEdit } = props;
  const filters = activeFilters(search, props.locations);
  const [cancelling, setCancelling] = useState<{ change: RateChange; busy: boolean; error: string | null } | null>(null);

  const columns = useMemo<DataColumn<RateChange>[]>(
    () => [
      { id: 'location', header: 'Location', sortable: true, alwaysShown: true, cell: (change) => change.location_name },
      {
        id: 'effective_at',
        header: 'Effective at',
        sortable: true,
        // The latest effective time first: what is coming, then what came.
        sortedByDefault: true,
        firstDirection: 'desc',
        alwaysShown: true,
        cell: (change) => formatDateTime(change.effective_at, change.time_zone),
      },
      { id: 'status', header: 'Status', cell: (change) => STATUS_LABELS[change.status] },
      { id: 'created_by', header: 'Scheduled by', priority: 3, cell: (change) => personLabel(change.created_by) },
      { id: 'reason', header: 'Reason', cell: (change) => change.reason },
      {
        id: 'created_at',
        header: 'Scheduled at',
        sortable: true,
        firstDirection: 'desc',
        hiddenByDefault: true,
        cell: (change) => formatDateTime(change.created_at, change.time_zone),
      },
      {
        id: 'cancelled',
        header: 'Cancelled',
        hiddenByDefault: true,
        cell: (change) =>
          change.cancelled_at ? `${formatDateTime(change.cancelled_at, change.time_zone)} by ${personLabel(change.cancelled_by)}` : '—',
      },
      {
        id: 'actions',
        header: 'Actions',
        actions: true,
        cell: (change) => {
          if (!canEdit(change.location_id)) return null;
          const when = formatDateTime(change.effective_at, change.time_zone);
          return (
            <div className="form-actions">
              <Link
                to="/rates/changes/edit/{-$locationId}/{-$rateId}/{-$currentRsId}"
                params={{ locationId: String(change.location_id), rateId: String(change.rate_set_id) }}
                aria-label={`Start a new change from the rates of ${change.location_name} at ${when}`}
              >
                Start from this
              </Link>
              {change.status === 'scheduled' && (
                <button
                  type="button"
                  className="button"
                  aria-label={`Cancel the change of ${change.location_name} at ${when}`}
                  onClick={() => setCancelling({ change, busy: false, error: null })}
                >
                  Cancel change
                </button>
              )}
            </div>
          );
        },
      },
    ],
    [canEdit],
  );

  const confirmCancel = async () => {
    if (!cancelling) return;
    setCancelling({ ...cancelling, busy: true, error: null });
    try {
      await props.onCancelChange(cancelling.change);
      setCancelling(null);
    } catch (error) {
      setCancelling({ ...cancelling, busy: false, error: error instanceof Error && error.message ? error.message : 'The server did not answer.' });
    }
  };

  return (
    <ListScreen
      list={props}
      identity={RATE_CHANGES_LIST}
      tabs={RATES_TABS}
      actions={
        props.canSchedule && (
          <Link to="/rates/changes/edit/{-$locationId}/{-$rateId}/{-$currentRsId}" params={{}} className="button primary">
            Schedule a rate change
          </Link>
        )
      }
      filters={filters}
      filterForm={<RateChangeFilters search={search} locations={props.locations} onSearch={onSearch} />}
      columns={columns}
    >
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => (open ? undefined : setCancelling(null))}
        title="Cancel this rate change?"
        description={
          cancelling && (
            <p>
              The rates of <strong>{cancelling.change.location_name}</strong> will not change at{' '}
              {formatDateTime(cancelling.change.effective_at, cancelling.change.time_zone)}. The change stays in this list as
              cancelled.
            </p>
          )
        }
        confirmLabel="Cancel the change"
        busyLabel="Cancelling…"
        cancelLabel="Keep it"
        destructive
        busy={cancelling?.busy ?? false}
        error={cancelling?.error}
        onConfirm={() => void confirmCancel()}
      />
    </ListScreen>
  );
}

/** The location and status filters: each applies at once and goes back to page 1. */
function RateChangeFilters({
  search,
  locations,
  onSearch,
}: Pick<RateChangesListProps, 'search' | 'locations' | 'onSearch'>) {
  return (
    <FilterForm label="Filter rate changes">
      <LocationFilter
        locations={locations}
        value={search.locationId}
        anyLabel="Any location"
        onChange={(locationId) => filterChange(onSearch, { locationId })}
      />
      <SelectFilter
        label="Status"
        value={search.status}
        anyLabel="Any status"
        options={RATE_CHANGE_STATUSES}
        optionLabel={(status) => STATUS_LABELS[status]}
        onChange={(status) => filterChange(onSearch, { status })}
      />
    </FilterForm>
  );
}
