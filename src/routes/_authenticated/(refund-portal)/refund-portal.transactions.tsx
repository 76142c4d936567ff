import { createFileRoute } from '@tanstack/react-router';
import { exportTransactionsCsv, listTransactionLocations, searchTransactions } from '../../../api/transactions';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import type { TransactionRow } from '../../../contract/transactions';
import { transactionSearchSchema } from '../../../contract/transaction-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { TransactionsList } from './-components/transactions/transactions-list';
import { useListSearch } from '../../-shared/use-list-search';

/** The transaction search of the refund portal: the same list pattern as Locations (docs/sections.md). */
export const Route = createFileRoute('/_authenticated/(refund-portal)/refund-portal/transactions')({
  // The pending screen is the search itself, loading: it comes with the section, never with the entry.
  validateSearch: forgivingSearch(transactionSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  // The page and the location choice in parallel. Without the choice the search still works (all locations).
  loader: async ({ context, deps, abortController }) => {
    const signal = abortController.signal;
    const [result, locations] = await Promise.all([
      loadListPage(() => searchTransactions(context.api, deps, { signal })),
      listTransactionLocations(context.api, { signal }).catch(() => []),
    ]);
    return { result, locations };
  },
  // As for Locations: quick changes keep the rows on screen; only a slow answer shows the skeleton.
  pendingMs: 400,
  pendingComponent: () => <TransactionsPage result={null} locations={[]} />,
  component: function LoadedTransactionsPage() {
    const { result, locations } = Route.useLoaderData();
    return <TransactionsPage result={result} locations={locations} />;
  },
});

function TransactionsPage({
  result,
  locations,
}: {
  result: ListResult<TransactionRow> | null;
  locations: readonly LocationRef[];
}) {
  const list = useListSearch(Route);
  const { search } = list;
  const { api } = Route.useRouteContext();
  return (
    <TransactionsList
      {...list}
      result={result}
      locations={locations}
      onExport={(onProgress) => exportTransactionsCsv(api, search, onProgress)}
    />
  );
}
