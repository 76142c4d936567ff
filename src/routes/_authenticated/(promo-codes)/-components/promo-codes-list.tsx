import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { PROMO_CODE_STATES, type PromoCode, type PromoCodeListQuery } from '../../../../contract/promo-codes';
import type { LocationRef } from '../../../../permissions/permissions-object';
import type { DataColumn } from '../../../../ui/data-table';
import { DateTime } from '../../../../ui/date-time';
import { FilterForm, filterChange, LocationFilter, SelectFilter, TextFilter, useTextFilter } from '../../../../ui/filter-form';
import { ListScreen, type ListExport, type ListIdentity, type ListScreenState } from '../../../../ui/list-screen';
import type { ActiveFilter } from '../../../../ui/list-states';
import { Discount } from './discount';
import { promoCodeZone } from './promo-code-draft';
import { PROMO_STATE_LABELS } from './promo-labels';

const PROMO_CODES_LIST: ListIdentity<PromoCode> = {
  title: 'Promo Codes',
  noun: 'promo code',
  caption: 'Promo codes at your locations',
  rowKey: (code) => String(code.promo_code_id),
  whenUnfiltered: <p>No promo codes at your locations yet.</p>,
};

export interface PromoCodesListProps extends ListScreenState<PromoCode, PromoCodeListQuery> {
  locations: readonly LocationRef[];
  canAdd: boolean;
  canEdit: (code: PromoCode) => boolean;
  onExport: ListExport;
}

/** Promo codes with their usage: code search, state and location filters, sort, pages, CSV; add and edit where allowed. */
export function PromoCodesList(props: PromoCodesListProps) {
  const { search, onSearch, locations, canEdit } = props;
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Code', value: `“${search.q}”` });
  if (search.state) filters.push({ label: 'State', value: PROMO_STATE_LABELS[search.state] });
  if (search.locationId) {
    filters.push({ label: 'Location', value: locations.find((l) => l.location_id === search.locationId)?.name ?? `#${search.locationId}` });
  }
  const columns = useMemo<DataColumn<PromoCode>[]>(
    () => [
      { id: 'code', header: 'Code', sortable: true, sortedByDefault: true, alwaysShown: true, cell: (code) => <span className="plate-text">{code.code}</span> },
      { id: 'discount', header: 'Discount', cell: (code) => <Discount code={code} /> },
      { id: 'use', header: 'Use', priority: 3, cell: (code) => (code.multi_use ? 'Multi use' : 'Single use') },
      { id: 'uses', header: 'Uses', sortable: true, numeric: true, firstDirection: 'desc', cell: (code) => code.uses.toLocaleString('en-US') },
      {
        id: 'remaining',
        header: 'Remaining',
        sortable: true,
        numeric: true,
        cell: (code) => (code.remaining === null ? 'No cap' : code.remaining.toLocaleString('en-US')),
      },
      // Each code's times on its locations' clock (the viewer's for codes across zones).
      { id: 'valid_from', header: 'Valid from', sortable: true, cell: (code) => <DateTime iso={code.valid_from} timeZone={promoCodeZone(code.location_ids, locations)} /> },
      { id: 'valid_to', header: 'Valid to', sortable: true, cell: (code) => <DateTime iso={code.valid_to} timeZone={promoCodeZone(code.location_ids, locations)} /> },
      { id: 'active', header: 'Active', priority: 2, cell: (code) => (code.active ? 'Active' : 'Deactivated') },
      {
        id: 'actions',
        header: 'Actions',
        actions: true,
        cell: (code) =>
          canEdit(code) ? (
            <Link to="/promo-codes/{-$edit}/{-$promoCodeId}" params={{ edit: 'edit', promoCodeId: String(code.promo_code_id) }} aria-label={`Edit ${code.code}`}>
              Edit
            </Link>
          ) : null,
      },
    ],
    [canEdit, locations],
  );
  return (
    <ListScreen
      list={props}
      identity={PROMO_CODES_LIST}
      actions={
        props.canAdd && (
          <Link to="/promo-codes/{-$edit}/{-$promoCodeId}" params={{ edit: 'add' }} className="button primary">
            Add promo code
          </Link>
        )
      }
      filters={filters}
      filterForm={<PromoFilters search={search} onSearch={onSearch} locations={locations} />}
      columns={columns}
    />
  );
}

function PromoFilters({ search, onSearch, locations }: Pick<PromoCodesListProps, 'search' | 'onSearch' | 'locations'>) {
  const code = useTextFilter(search.q);
  return (
    <FilterForm label="Filter promo codes" onSubmit={() => filterChange(onSearch, { q: code.value })}>
      <TextFilter label="Code" filter={code} maxLength={20} />
      <SelectFilter
        label="State"
        value={search.state}
        anyLabel="Any state"
        options={PROMO_CODE_STATES}
        optionLabel={(state) => PROMO_STATE_LABELS[state]}
        onChange={(state) => filterChange(onSearch, { state })}
      />
      <LocationFilter locations={locations} value={search.locationId} onChange={(locationId) => filterChange(onSearch, { locationId })} />
    </FilterForm>
  );
}
