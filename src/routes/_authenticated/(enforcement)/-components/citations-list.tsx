import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { CITATION_STATUSES, type Citation, type CitationListQuery } from '../../../../contract/citations';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { Money } from '../../../../ui/money';
import { DateTime } from '../../../../ui/date-time';
import type { DataColumn } from '../../../../ui/data-table';
import type { ActiveFilter } from '../../../../ui/list-states';
import { ListScreen, type ListExport, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';
import { FilterForm, filterChange, LocationFilter, SelectFilter, TextFilter, useTextFilter } from '../../../../ui/filter-form';
import { CITATION_STATUS_LABELS, ENFORCEMENT_TABS } from './citation-labels';

const CITATIONS_LIST: ListIdentity<Citation> = {
  title: 'Citations',
  noun: 'citation',
  caption: 'Citations at your enforcement locations',
  rowKey: (citation) => citation.citation_id,
  whenUnfiltered: <p>No citations at your locations yet.</p>,
};

export interface CitationsListProps extends ListScreenState<Citation, CitationListQuery> {
  locations: readonly LocationRef[];
  onExport: ListExport;
}

/** The office's citations: plate, status, location and officer filters, newest first, pages, CSV; each opens its page. */
export function CitationsList(props: CitationsListProps) {
  const { search, onSearch, locations } = props;
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Plate', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: CITATION_STATUS_LABELS[search.status] });
  if (search.locationId) {
    filters.push({ label: 'Location', value: locations.find((l) => l.location_id === search.locationId)?.name ?? `#${search.locationId}` });
  }
  if (search.officer) filters.push({ label: 'Officer', value: `“${search.officer}”` });
  const columns = useMemo<DataColumn<Citation>[]>(
    () => [
      // Each citation's time on its location's clock.
      {
        id: 'issued_at',
        header: 'Written',
        sortable: true,
        sortedByDefault: true,
        firstDirection: 'desc',
        alwaysShown: true,
        cell: (citation) => <DateTime iso={citation.issued_at} timeZone={citation.time_zone} />,
      },
      {
        id: 'license_plate',
        header: 'Plate',
        sortable: true,
        alwaysShown: true,
        cell: (citation) => (
          <Link to="/citations/{-$citationId}" params={{ citationId: citation.citation_id }} className="plate-text" aria-label={`Citation for ${citation.license_plate}`}>
            {citation.license_plate}
          </Link>
        ),
      },
      { id: 'violation', header: 'Violation', cell: (citation) => citation.violation_label },
      { id: 'fine_cents', header: 'Fine', sortable: true, numeric: true, firstDirection: 'desc', cell: (citation) => <Money cents={citation.fine_cents} /> },
      { id: 'location', header: 'Location', priority: 2, cell: (citation) => citation.location_name },
      { id: 'officer', header: 'Officer', priority: 3, cell: (citation) => citation.officer.name ?? citation.officer.email },
      { id: 'status', header: 'Status', cell: (citation) => CITATION_STATUS_LABELS[citation.status] },
      { id: 'photos', header: 'Photos', priority: 3, numeric: true, cell: (citation) => citation.photos.length },
    ],
    [],
  );
  return (
    <ListScreen
      list={props}
      identity={CITATIONS_LIST}
      tabs={ENFORCEMENT_TABS}
      filters={filters}
      filterForm={<CitationFilters search={search} onSearch={onSearch} locations={locations} />}
      columns={columns}
    />
  );
}

function CitationFilters({ search, onSearch, locations }: Pick<CitationsListProps, 'search' | 'onSearch' | 'locations'>) {
  const plate = useTextFilter(search.q);
  const officer = useTextFilter(search.officer);
  return (
    <FilterForm label="Filter citations" onSubmit={() => filterChange(onSearch, { q: plate.value, officer: officer.value })}>
      <TextFilter label="Plate" filter={plate} maxLength={16} />
      <TextFilter label="Officer" filter={officer} maxLength={120} />
      <SelectFilter
        label="Status"
        value={search.status}
        anyLabel="Any status"
        options={CITATION_STATUSES}
        optionLabel={(status) => CITATION_STATUS_LABELS[status]}
        onChange={(status) => filterChange(onSearch, { status })}
      />
      <LocationFilter locations={locations} value={search.locationId} onChange={(locationId) => filterChange(onSearch, { locationId })} />
    </FilterForm>
  );
}
