import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { TICKET_STATUSES, type TicketListQuery, type TicketRow } from '../../../../../contract/refund-tickets';
import type { LocationRef } from '../../../../../permissions/permissions-object';
import type { DataColumn } from '../../../../../ui/data-table';
import { formatCalendarDate, formatDateTime } from '../../../../../ui/format';
import { FilterForm, filterChange, LocationFilter, SelectFilter } from '../../../../../ui/filter-form';
import { FormField } from '../../../../../ui/form-field';
import { ListScreen, type ListExport, type ListIdentity, type ListScreenState } from '../../../../../ui/list-screen';
import { Money } from '../../../../../ui/money';
import type { ActiveFilter } from '../../../../../ui/list-states';
import { REFUND_PORTAL_TABS } from '../../../../-shared/section-tabs';
import { TICKET_STATUS_LABELS } from './ticket-labels';

const TICKETS_LIST: ListIdentity<TicketRow> = {
  title: 'Refund Tickets',
  noun: 'ticket',
  caption: 'Refund tickets at your locations',
  rowKey: (row) => String(row.ticket_id),
  columnChoiceKey: 'refund-tickets',
  whenUnfiltered: <p>No refund tickets at your locations yet. Open one from a transaction.</p>,
};

export interface TicketsListProps extends ListScreenState<TicketRow, TicketListQuery> {
  locations: readonly LocationRef[];
  onExport: ListExport;
}

/** Refund tickets of the user's refund-portal locations: status and location filters, sort, pages, CSV. */
export function TicketsList(props: TicketsListProps) {
  const { search, onSearch, locations } = props;
  const filters: ActiveFilter[] = [];
  if (search.status) filters.push({ label: 'Status', value: TICKET_STATUS_LABELS[search.status] });
  if (search.from) filters.push({ label: 'Opened from', value: formatCalendarDate(search.from) });
  if (search.to) filters.push({ label: 'Opened to', value: formatCalendarDate(search.to) });
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
      { id: 'created_at', header: 'Opened', sortable: true, sortedByDefault: true, firstDirection: 'desc', cell: (row) => formatDateTime(row.created_at, row.time_zone) },
      { id: 'requester', header: 'Requested by', priority: 3, cell: (row) => row.requester ?? '—' },
      { id: 'amount', header: 'Amount asked', sortable: true, numeric: true, firstDirection: 'desc', cell: (row) => <Money cents={row.amount_requested_cents} /> },
      {
        id: 'transaction',
        header: 'Transaction',
        priority: 2,
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
    <ListScreen
      list={props}
      identity={TICKETS_LIST}
      tabs={REFUND_PORTAL_TABS}
      filters={filters}
      filterForm={
        <FilterForm label="Filter tickets">
          <SelectFilter
            label="Status"
            value={search.status}
            anyLabel="Any status"
            options={TICKET_STATUSES}
            optionLabel={(status) => TICKET_STATUS_LABELS[status]}
            onChange={(status) => filterChange(onSearch, { status })}
          />
          <LocationFilter locations={locations} value={search.locationId} onChange={(locationId) => filterChange(onSearch, { locationId })} />
          {(['from', 'to'] as const).map((field) => (
            <FormField key={field} label={field === 'from' ? 'Opened from' : 'Opened to'} hint="The day on the clock of each ticket's location">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  className="input"
                  value={search[field] ?? ''}
                  onChange={(event) => filterChange(onSearch, { [field]: event.target.value || undefined })}
                />
              )}
            </FormField>
          ))}
        </FilterForm>
      }
      columns={columns}
    />
  );
}
