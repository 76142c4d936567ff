import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import { PROMO_CODE_STATES, type PromoCode, type PromoCodeListQuery } from '../../../contract/promo-codes';
import type { LocationRef } from '../../../permissions/permissions-object';
import { CsvExportButton } from '../../../ui/csv-export-button';
import type { DataColumn, SortState } from '../../../ui/data-table';
import { DateTime } from '../../../ui/date-time';
import { FormField } from '../../../ui/form-field';
import { ListFilters } from '../../../ui/list-filters';
import { ListResults, type ListResult } from '../../../ui/list-results';
import type { ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { Discount } from './discount';
import { promoCodeZone } from './promo-code-draft';
import { PROMO_STATE_LABELS } from './promo-labels';

const DEFAULT_SORT: SortState = { key: 'code', dir: 'asc' };

export interface PromoCodesListProps {
  search: PromoCodeListQuery;
  result: ListResult<PromoCode> | null;
  locations: readonly LocationRef[];
  canAdd: boolean;
  canEdit: (code: PromoCode) => boolean;
  onSearch: (update: (current: PromoCodeListQuery) => PromoCodeListQuery) => void;
  onRetry: () => void;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
  busy: boolean;
}

/** Promo codes with their usage: code search, state and location filters, sort, pages, CSV; add and edit where allowed. */
export function PromoCodesList(props: PromoCodesListProps) {
  const { search, result, onSearch, locations, canEdit } = props;
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Code', value: `“${search.q}”` });
  if (search.state) filters.push({ label: 'State', value: PROMO_STATE_LABELS[search.state] });
  if (search.locationId) {
    filters.push({ label: 'Location', value: locations.find((l) => l.location_id === search.locationId)?.name ?? `#${search.locationId}` });
  }
  const columns = useMemo<DataColumn<PromoCode>[]>(
    () => [
      { id: 'code', header: 'Code', sortable: true, alwaysShown: true, cell: (code) => <span className="plate-text">{code.code}</span> },
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
    <SectionPage title="Promo Codes">
      <div className="list-toolbar">
        {props.canAdd && (
          <Link to="/promo-codes/{-$edit}/{-$promoCodeId}" params={{ edit: 'add' }} className="button primary">
            Add promo code
          </Link>
        )}
        <CsvExportButton onExport={props.onExport} />
      </div>
      <ListFilters count={filters.length}>
        <PromoFilters search={search} onSearch={onSearch} locations={locations} />
      </ListFilters>
      <ListResults
        result={result}
        search={search}
        onSearch={onSearch}
        onRetry={props.onRetry}
        busy={props.busy}
        noun={{ one: 'promo code', other: 'promo codes' }}
        caption="Promo codes at your locations"
        columns={columns}
        rowKey={(code) => String(code.promo_code_id)}
        defaultSort={DEFAULT_SORT}
        columnChoiceKey="promo-codes"
        filters={filters}
        whenUnfiltered={<p>No promo codes at your locations yet.</p>}
      />
    </SectionPage>
  );
}

function PromoFilters({ search, onSearch, locations }: Pick<PromoCodesListProps, 'search' | 'onSearch' | 'locations'>) {
  const [q, setQ] = useState(search.q ?? '');
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
    <form role="search" aria-label="Filter promo codes" className="filter-form" onSubmit={submit}>
      <FormField label="Code">
        {(control) => <input {...control} type="search" className="input" value={q} maxLength={20} onChange={(event) => setQ(event.target.value)} />}
      </FormField>
      <FormField label="State">
        {(control) => (
          <select
            {...control}
            className="select"
            value={search.state ?? ''}
            onChange={(event) =>
              onSearch((current) => ({ ...current, state: (event.target.value || undefined) as PromoCodeListQuery['state'], page: undefined }))
            }
          >
            <option value="">Any state</option>
            {PROMO_CODE_STATES.map((state) => (
              <option key={state} value={state}>
                {PROMO_STATE_LABELS[state]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Location">
        {(control) => (
          <select
            {...control}
            className="select"
            value={search.locationId ?? ''}
            onChange={(event) =>
              onSearch((current) => ({ ...current, locationId: event.target.value ? Number(event.target.value) : undefined, page: undefined }))
            }
          >
            <option value="">All your locations</option>
            {locations.map((location) => (
              <option key={location.location_id} value={location.location_id}>
                {location.name}
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
