import { createFileRoute } from '@tanstack/react-router';
import { listTransactionLocations } from '../../../api/transactions';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { requireAccess } from '../../-shared/require-access';
import type { TicketRow } from '../../../contract/refund-tickets';
import { ticketListQuerySchema } from '../../../contract/refund-ticket-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { TicketsList } from './-components/refunds/tickets-list';

/** Refund tickets (spec §2: /refund-portal): filters, sort and page in the URL; the loader fetches that page. */
export const Route = createFileRoute('/_authenticated/(refund-portal)/refund-portal/')({
  validateSearch: forgivingSearch(ticketListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  loader: async ({ context, deps, abortController }) => {
    // Imported here, not at the top: the entry chunk carries only this route's search check
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = await import('../../../api/refunds');
    return loadList(
      abortController,
      (options) => api.listTickets(context.api, deps, options),
      (options) => listTransactionLocations(context.api, options),
    );
  },
  pendingMs: 400,
  pendingComponent: () => <TicketsPage loaded={null} />,
  component: function LoadedTicketsPage() {
    return <TicketsPage loaded={Route.useLoaderData()} />;
  },
});

function TicketsPage({ loaded }: { loaded: LoadedList<TicketRow, LocationRef> | null }) {
  return <TicketsList {...useListPage(Route, loaded, async (...args) => (await import('../../../api/refunds')).exportTicketsCsv(...args))} />;
}
