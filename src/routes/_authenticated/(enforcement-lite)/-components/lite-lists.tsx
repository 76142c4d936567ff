import { Link } from '@tanstack/react-router';
import {
  LITE_LOCATION_STATUSES,
  LITE_OFFICER_STATUSES,
  type EnforcementLiteSearch,
  type LiteLocation,
  type LiteOfficer,
} from '../../../../contract/enforcement-lite';
import type { DataColumn } from '../../../../ui/data-table';
import { TextAndStatusFilters } from '../../../../ui/filter-form';
import { formatDateTime } from '../../../../ui/format';
import type { ListResult } from '../../../../ui/list-results';
import { ListScreen, textAndStatusInForce, type ListIdentity } from '../../../../ui/list-screen';
import { viewerTimeZone } from '../../../../ui/zoned-time';
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
  const filters = textAndStatusInForce(search, statusText);
  const screen = {
    intro: (
      <>
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
      </>
    ),
    filters,
    filterForm: (
      <TextAndStatusFilters
        key={show}
        label={`Filter ${show === 'locations' ? 'lite locations' : 'officers'}`}
        textLabel={show === 'locations' ? 'Name, address or operator' : 'E-mail or name'}
        search={search}
        onSearch={onSearch}
        statuses={show === 'locations' ? LITE_LOCATION_STATUSES : LITE_OFFICER_STATUSES}
        statusLabel={statusText}
      />
    ),
    // "Clear filters" stays on the list shown.
    keepOnClear: ['show'] as const,
  };
  const state = { search, onSearch, onRetry, busy };
  return show === 'locations' ? (
    <ListScreen {...screen} list={{ ...state, result: list?.show === 'locations' ? list.result : null }} identity={LOCATIONS_LIST} columns={LOCATION_COLUMNS} />
  ) : (
    <ListScreen {...screen} list={{ ...state, result: list?.show === 'officers' ? list.result : null }} identity={OFFICERS_LIST} columns={OFFICER_COLUMNS} />
  );
}

// One page, two lists: the title is the page's.
const TITLE = 'Enforcement Lite';

const LOCATIONS_LIST: ListIdentity<LiteLocation> = {
  title: TITLE,
  noun: 'lite location',
  caption: 'Lite locations',
  rowKey: (location) => String(location.location_id),
  columnChoiceKey: 'enforcement-lite-locations',
};

const OFFICERS_LIST: ListIdentity<LiteOfficer> = {
  title: TITLE,
  noun: 'officer',
  caption: 'Lite officers',
  rowKey: (officer) => String(officer.user_id),
  columnChoiceKey: 'enforcement-lite-officers',
  whenUnfiltered: <p>No lite officers yet.</p>,
};

const LOCATION_COLUMNS: DataColumn<LiteLocation>[] = [
  {
    id: 'name',
    header: LOCATION.name!,
    sortable: true,
    sortedByDefault: true,
    alwaysShown: true,
    cell: (location) => (
      <Link to="/enforcement-lite/edit-location/$locationId" params={{ locationId: String(location.location_id) }}>
        {location.name}
      </Link>
    ),
  },
  { id: 'operator_name', header: LOCATION.operator_name!, sortable: true, cell: (location) => location.operator_name },
  { id: 'address', header: LOCATION.address!, priority: 2, cell: (location) => location.address },
  { id: 'time_zone', header: LOCATION.time_zone!, sortable: true, hiddenByDefault: true, cell: (location) => location.time_zone },
  {
    id: 'capacity',
    header: LOCATION.capacity!,
    sortable: true,
    numeric: true,
    firstDirection: 'desc',
    priority: 3,
    cell: (location) => location.capacity.toLocaleString('en-US'),
  },
  { id: 'officer_count', header: LOCATION.officer_count!, numeric: true, cell: (location) => String(location.officer_count) },
  { id: 'status', header: LOCATION.status!, sortable: true, cell: (location) => liteLocationStatusLabel(location.status) },
];

const OFFICER_COLUMNS: DataColumn<LiteOfficer>[] = [
  {
    id: 'email',
    header: OFFICER.email!,
    sortable: true,
    sortedByDefault: true,
    alwaysShown: true,
    cell: (officer) => (
      <Link to="/enforcement-lite/edit-user/$userId" params={{ userId: String(officer.user_id) }}>
        {officer.email}
      </Link>
    ),
  },
  { id: 'display_name', header: OFFICER.display_name!, sortable: true, cell: (officer) => officer.display_name ?? '—' },
  { id: 'locations', header: OFFICER.location_ids!, priority: 2, cell: (officer) => officer.location_names.join(', ') || '—' },
  { id: 'status', header: OFFICER.status!, sortable: true, cell: (officer) => officerStatusLabel(officer.status) },
  {
    id: 'last_sign_in_at',
    header: OFFICER.last_sign_in_at!,
    sortable: true,
    firstDirection: 'desc',
    priority: 3,
    // An officer may work at several locations: the viewer's own clock.
    cell: (officer) => (officer.last_sign_in_at ? formatDateTime(officer.last_sign_in_at, viewerTimeZone()) : 'Never'),
  },
];
