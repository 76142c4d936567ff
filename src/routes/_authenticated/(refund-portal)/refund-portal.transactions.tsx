import { createFileRoute } from '@tanstack/react-router';
import { exportTransactionsCsv, listTransactionLocations, searchTransactions } from '../../../api/transactions';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { requireAccess } from '../../-shared/require-access';
import type { TransactionRow } from '../../../contract/transactions';
import { transactionSearchSchema } from '../../../contract/transaction-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { TransactionsList } from './-components/transactions/transactions-list';

/** The transaction search of the refund portal: the same list pattern as Locations (docs/sections.md). */
export const Route = createFileRoute('/_authenticated/(refund-portal)/refund-portal/transactions')({
  // The pending screen is the search itself, loading: it comes with the section, never with the entry.
  validateSearch: forgivingSearch(transactionSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  // The page and the location choice in parallel. Without the choice the search still works (all locations).
  loader: ({ context, deps, abortController }) =>
    loadList(
      abortController,
      (options) => searchTransactions(context.api, deps, options),
      (options) => listTransactionLocations(context.api, options),
    ),
  // As for Locations: quick changes keep the rows on screen; only a slow answer shows the skeleton.
  pendingMs: 400,
  pendingComponent: () => <TransactionsPage loaded={null} />,
  component: function LoadedTransactionsPage() {
    return <TransactionsPage loaded={Route.useLoaderData()} />;
  },
});

function TransactionsPage({ loaded }: { loaded: LoadedList<TransactionRow, LocationRef> | null }) {
  return <TransactionsList {...useListPage(Route, loaded, exportTransactionsCsv)} />;
}
