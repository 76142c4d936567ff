import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { TransactionRow, TransactionSearch } from '../../../../../contract/transactions';
import type { LocationRef } from '../../../../../permissions/permissions-object';
import type { DataColumn } from '../../../../../ui/data-table';
import { formatDateTime, maskedPhone } from '../../../../../ui/format';
import { ListScreen, type ListExport, type ListIdentity, type ListScreenState } from '../../../../../ui/list-screen';
import { Money } from '../../../../../ui/money';
import type { ActiveFilter } from '../../../../../ui/list-states';
import { REFUND_PORTAL_TABS } from '../../../../-shared/section-tabs';
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, SEARCH_FIELD_LABELS as LABELS } from './transaction-labels';
import { TransactionSearchForm } from './transaction-search-form';

const TRANSACTIONS_LIST: ListIdentity<TransactionRow> = {
  title: 'Transactions',
  noun: 'transaction',
  caption: 'Transactions found',
  rowKey: (row) => String(row.transaction_id),
  whenUnfiltered: <p>There are no payments at your locations yet.</p>,
};
const FILTER_KEYS = ['plate', 'phone', 'transactionId', 'amount', 'from', 'to', 'locationId', 'status'] as const;

export interface TransactionsListProps extends ListScreenState<TransactionRow, TransactionSearch> {
  locations: readonly LocationRef[];
  onExport: ListExport;
}

function activeFilters(search: TransactionSearch, locations: readonly LocationRef[]): ActiveFilter[] {
  return FILTER_KEYS.flatMap((key): ActiveFilter[] => {
    const value = search[key];
    if (!value) return [];
    if (key === 'status') return [{ label: LABELS.status, value: PAYMENT_STATUS_LABELS[search.status!] }];
    if (key === 'locationId') {
      const name = locations.find((location) => String(location.location_id) === value)?.name;
      return [{ label: LABELS.locationId, value: name ?? `#${value}` }];
    }
    return [{ label: LABELS[key], value: `“${value}”` }];
  });
}

/** The list's sort, page and page size, kept when the filters change (a new search starts on page 1). */
const keepView = (search: TransactionSearch): TransactionSearch => ({
  sort: search.sort,
  dir: search.dir,
  pageSize: search.pageSize,
});

/** Payments at the user's refund-portal locations: search, sortable columns, pages and CSV of every match. */
export function TransactionsList(props: TransactionsListProps) {
  const { search, locations, onSearch } = props;

  const columns = useMemo<DataColumn<TransactionRow>[]>(
    () => [
      {
        id: 'transaction_id',
        header: 'Transaction',
        sortable: true,
        alwaysShown: true,
        cell: (row) => (
          <Link
            to="/transactions/{-$transactionId}"
            params={{ transactionId: String(row.transaction_id) }}
            search={search}
            aria-label={`Transaction ${row.transaction_id}`}
          >
            {row.transaction_id}
          </Link>
        ),
      },
      {
        id: 'payment_time',
        header: 'Paid at',
        sortable: true,
        sortedByDefault: true,
        firstDirection: 'desc',
        cell: (row) => formatDateTime(row.payment_time, row.time_zone),
      },
      { id: 'location', header: 'Location', cell: (row) => row.location_name },
      {
        id: 'license_plate',
        header: 'Plate',
        sortable: true,
        cell: (row) => <span className="plate-text">{row.license_plate}</span>,
      },
      {
        id: 'amount',
        header: 'Amount',
        sortable: true,
        numeric: true,
        firstDirection: 'desc',
        cell: (row) => <Money cents={row.amount_cents} />,
      },
      { id: 'status', header: 'Status', priority: 2, cell: (row) => PAYMENT_STATUS_LABELS[row.status] },
      { id: 'phone', header: 'Phone', priority: 2, cell: (row) => maskedPhone(row.phone_last4) },
      { id: 'method', header: 'Method', hiddenByDefault: true, cell: (row) => PAYMENT_METHOD_LABELS[row.payment_method] },
      {
        id: 'expiry',
        header: 'Expires',
        hiddenByDefault: true,
        cell: (row) => formatDateTime(row.expiry_date_time, row.time_zone),
      },
      { id: 'fee', header: 'Fee', numeric: true, hiddenByDefault: true, cell: (row) => <Money cents={row.fee_cents} /> },
      {
        id: 'refunded',
        header: 'Refunded',
        numeric: true,
        hiddenByDefault: true,
        cell: (row) => <Money cents={row.refunded_cents} />,
      },
    ],
    [search],
  );

  const filters = activeFilters(search, locations);
  return (
    <ListScreen
      list={props}
      identity={TRANSACTIONS_LIST}
      tabs={REFUND_PORTAL_TABS}
      filters={filters}
      filterForm={
        <TransactionSearchForm
          search={search}
          locations={locations}
          onSearch={(filters) => onSearch((current) => ({ ...keepView(current), ...filters }))}
        />
      }
      columns={columns}
    />
  );
}
