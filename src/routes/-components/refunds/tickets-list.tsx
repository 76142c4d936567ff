import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { ListResult } from '../../../app/list-route';
import { TICKET_STATUSES, type TicketListQuery, type TicketRow } from '../../../contract/refund-tickets';
import type { LocationRef } from '../../../permissions/permissions-object';
import { CsvExportButton } from '../../../ui/csv-export-button';
import { DataTable, type DataColumn, type SortState } from '../../../ui/data-table';
import { formatDateTime, formatMoney } from '../../../ui/format';
import { FormField } from '../../../ui/form-field';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from '../../../ui/list-states';
import { SectionPage } from '../../../ui/section-page';
import { urlPaging } from '../url-paging';
import { TICKET_STATUS_LABELS } from './ticket-labels';

const DEFAULT_SORT: SortState = { key: 'created_at', dir: 'desc' };

export interface TicketsListProps {
  search: TicketListQuery;
  result: ListResult<TicketRow> | null;
  locations: readonly LocationRef[];
  onSearch: (update: (current: TicketListQuery) => TicketListQuery) => void;
  onRetry: () => void;
  onExport: (onProgress: (receivedBytes: number) => void) => Promise<void>;
  busy: boolean;
}

/** Refund tickets of the user's refund-portal locations: status and location filters, sort, pages, CSV. */
export function TicketsList(props: TicketsListProps) {
  const { search, result, onSearch, locations } = props;
  const sort: SortState = search.sort ? { key: search.sort, dir: search.dir ?? 'asc' } : DEFAULT_SORT;
  const filters: ActiveFilter[] = [];
  if (search.status) filters.push({ label: 'Status', value: TICKET_STATUS_LABELS[search.status] });
  if (search.from) filters.push({ label: 'Opened from', value: search.from });
  if (search.to) filters.push({ label: 'Opened to', value: search.to });
  if (search.locationId) {
    filters.push({ label: 'Location', value: locations.find((l) => l.location_id === search.locationId)?.name ?? `#${search.locationId}` });
  }
  const columns = useMemo<DataColumn<TicketRow>[]>(
    () => [
      {
        id: 'ticket_id',
        header: 'Ticket',
        sortable: true,
        alwaysShown: true,
        cell: (row) => (
          <Link to="/refund-portal/ticket-info/$ticketId" params={{ ticketId: String(row.ticket_id) }}>
            {`Ticket ${row.ticket_id}`}
          </Link>
        ),
      },
      { id: 'status', header: 'Status', sortable: true, cell: (row) => TICKET_STATUS_LABELS[row.status] },
      { id: 'location', header: 'Location', cell: (row) => row.location_name },
      { id: 'created_at', header: 'Opened', sortable: true, firstDirection: 'desc', cell: (row) => formatDateTime(row.created_at, row.time_zone) },
      { id: 'requester', header: 'Requested by', cell: (row) => row.requester ?? '—' },
      { id: 'amount', header: 'Amount asked', sortable: true, numeric: true, firstDirection: 'desc', cell: (row) => formatMoney(row.amount_requested_cents) },
      {
        id: 'transaction',
        header: 'Transaction',
        cell: (row) => (
          <Link to="/transactions/{-$transactionId}" params={{ transactionId: String(row.transaction_id) }}>
            {row.transaction_id}
          </Link>
        ),
      },
    ],
    [],
  );
  return (
    <SectionPage title="Refund Tickets">
      <div className="list-toolbar">
        <Link to="/refund-portal/transactions" className="button">
          Search transactions
        </Link>
        <CsvExportButton onExport={props.onExport} />
      </div>
      <form role="search" aria-label="Filter tickets" className="filter-form" onSubmit={(event) => event.preventDefault()}>
        <FormField label="Status">
          {(control) => (
            <select
              {...control}
              className="select"
              value={search.status ?? ''}
              onChange={(event) =>
                onSearch((current) => ({ ...current, status: (event.target.value || undefined) as TicketListQuery['status'], page: undefined }))
              }
            >
              <option value="">Any status</option>
              {TICKET_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {TICKET_STATUS_LABELS[status]}
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
        {(['from', 'to'] as const).map((field) => (
          <FormField key={field} label={field === 'from' ? 'Opened from (UTC)' : 'Opened to (UTC)'}>
            {(control) => (
              <input
                {...control}
                type="date"
                className="input"
                value={search[field] ?? ''}
                onChange={(event) => onSearch((current) => ({ ...current, [field]: event.target.value || undefined, page: undefined }))}
              />
            )}
          </FormField>
        ))}
      </form>
      {result === null ? (
        <TableSkeleton columns={7} label="Loading tickets…" />
      ) : !result.ok ? (
        <LoadError message={result.message} onRetry={props.onRetry} />
      ) : result.page.rows.length === 0 ? (
        <EmptyState
          noun="tickets"
          filters={filters}
          onClearFilters={() => onSearch((current) => ({ sort: current.sort, dir: current.dir, pageSize: current.pageSize }))}
          whenUnfiltered={<p>No refund tickets at your locations yet. Open one from a transaction.</p>}
        />
      ) : (
        <DataTable
          caption="Refund tickets at your locations"
          columns={columns}
          rows={result.page.rows}
          rowKey={(row) => String(row.ticket_id)}
          sort={sort}
          onSortChange={(next) =>
            onSearch((current) => ({ ...current, sort: next.key as TicketListQuery['sort'], dir: next.dir, page: undefined }))
          }
          columnChoiceKey="refund-tickets"
          busy={props.busy}
          paging={urlPaging(result.page, { one: 'ticket', other: 'tickets' }, onSearch)}
        />
      )}
    </SectionPage>
  );
}
