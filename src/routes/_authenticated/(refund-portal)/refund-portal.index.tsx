import { createFileRoute } from '@tanstack/react-router';
import { listTransactionLocations } from '../../../api/transactions';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import type { TicketRow } from '../../../contract/refund-tickets';
import { ticketListQuerySchema } from '../../../contract/refund-ticket-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { TicketsList } from './-components/refunds/tickets-list';
import { useListSearch } from '../../-shared/use-list-search';

/** Refund tickets (spec §2: /refund-portal): filters, sort and page in the URL; the loader fetches that page. */
export const Route = createFileRoute('/_authenticated/(refund-portal)/refund-portal/')({
  validateSearch: forgivingSearch(ticketListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  loader: async ({ context, deps, abortController }) => {
    const options = { signal: abortController.signal };
    const [result, locations] = await Promise.all([
      // Imported here, not at the top: the entry chunk carries only this route's search check (docs/decisions.md).
      loadListPage(async () => (await import('../../../api/refunds')).listTickets(context.api, deps, options)),
      listTransactionLocations(context.api, options).catch(() => [] as LocationRef[]),
    ]);
    return { result, locations };
  },
  pendingMs: 400,
  pendingComponent: () => <TicketsPage result={null} locations={[]} />,
  component: function LoadedTicketsPage() {
    const { result, locations } = Route.useLoaderData();
    return <TicketsPage result={result} locations={locations} />;
  },
});

function TicketsPage({ result, locations }: { result: ListResult<TicketRow> | null; locations: readonly LocationRef[] }) {
  const list = useListSearch(Route);
  const { search } = list;
  const { api } = Route.useRouteContext();
  return (
    <TicketsList
      {...list}
      result={result}
      locations={locations}
      onExport={async (onProgress) => (await import('../../../api/refunds')).exportTicketsCsv(api, search, onProgress)}
    />
  );
}
