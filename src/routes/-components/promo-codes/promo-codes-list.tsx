import { Link } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import type { ListResult } from '../../../app/list-route';
import { PROMO_CODE_STATES, type PromoCode, type PromoCodeListQuery } from '../../../contract/promo-codes';
import type { LocationRef } from '../../../permissions/permissions-object';
import { CsvExportButton } from '../../../ui/csv-export-button';
import { DataTable, type DataColumn, type SortState } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { FormField } from '../../../ui/form-field';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { urlPaging } from '../url-paging';
import { discountLabel, PROMO_STATE_LABELS } from './promo-labels';

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
  const sort: SortState = search.sort ? { key: search.sort, dir: search.dir ?? 'asc' } : DEFAULT_SORT;
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Code', value: `“${search.q}”` });
  if (search.state) filters.push({ label: 'State', value: PROMO_STATE_LABELS[search.state] });
  if (search.locationId) {
    filters.push({ label: 'Location', value: locations.find((l) => l.location_id === search.locationId)?.name ?? `#${search.locationId}` });
  }
  const columns = useMemo<DataColumn<PromoCode>[]>(
    () => [
      { id: 'code', header: 'Code', sortable: true, alwaysShown: true, cell: (code) => <span className="plate-text">{code.code}</span> },
      { id: 'discount', header: 'Discount', cell: (code) => discountLabel(code) },
      { id: 'use', header: 'Use', cell: (code) => (code.multi_use ? 'Multi use' : 'Single use') },
      { id: 'uses', header: 'Uses', sortable: true, numeric: true, firstDirection: 'desc', cell: (code) => code.uses.toLocaleString('en-US') },
      {
        id: 'remaining',
        header: 'Remaining',
        sortable: true,
        numeric: true,
        cell: (code) => (code.remaining === null ? 'No cap' : code.remaining.toLocaleString('en-US')),
      },
      { id: 'valid_from', header: 'Valid from', sortable: true, cell: (code) => formatDateTime(code.valid_from, 'UTC') },
      { id: 'valid_to', header: 'Valid to', sortable: true, cell: (code) => formatDateTime(code.valid_to, 'UTC') },
      { id: 'active', header: 'Active', cell: (code) => (code.active ? 'Active' : 'Deactivated') },
      {
        id: 'actions',
        header: 'Actions',
        alwaysShown: true,
        cell: (code) =>
          canEdit(code) ? (
            <Link to="/promo-codes/{-$edit}/{-$promoCodeId}" params={{ edit: 'edit', promoCodeId: String(code.promo_code_id) }} aria-label={`Edit ${code.code}`}>
              Edit
            </Link>
          ) : null,
      },
    ],
    [canEdit],
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
      <PromoFilters search={search} onSearch={onSearch} locations={locations} />
      {result === null ? (
        <TableSkeleton columns={9} label="Loading promo codes…" />
      ) : !result.ok ? (
        <LoadError message={result.message} onRetry={props.onRetry} />
      ) : result.page.rows.length === 0 ? (
        <EmptyState
          noun="promo codes"
          filters={filters}
          onClearFilters={() => onSearch((current) => ({ sort: current.sort, dir: current.dir, pageSize: current.pageSize }))}
          whenUnfiltered={<p>No promo codes at your locations yet.</p>}
        />
      ) : (
        <DataTable
          caption="Promo codes at your locations"
          columns={columns}
          rows={result.page.rows}
          rowKey={(code) => String(code.promo_code_id)}
          sort={sort}
          onSortChange={(next) =>
            onSearch((current) => ({ ...current, sort: next.key as PromoCodeListQuery['sort'], dir: next.dir, page: undefined }))
          }
          columnChoiceKey="promo-codes"
          busy={props.busy}
          paging={urlPaging(result.page, { one: 'promo code', other: 'promo codes' }, onSearch)}
        />
      )}
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
