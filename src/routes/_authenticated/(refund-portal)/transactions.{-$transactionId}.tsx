import { createFileRoute, redirect } from '@tanstack/react-router';
import { openTicket } from '../../../api/refunds';
import { getTransaction, getTransactionHistory } from '../../../api/transactions';
import { hasPermission } from '../../../permissions/rules';
import { forgivingSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { transactionParamsSchema, transactionSearchSchema } from '../../../contract/transaction-search';
import { LoadFailure } from '../../../ui/load-failure';
import { TransactionDetailScreen, TransactionNotFound } from './-components/transactions/transaction-detail';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

/**
 * One payment (spec §2: /transactions/{transactionId?}). Its search params are the transaction search's, carried
 * from the list, so "Back to the search" returns to the same filters, sort and page. Without an id it is the search.
 */
export const Route = createFileRoute('/_authenticated/(refund-portal)/transactions/{-$transactionId}')({
  validateSearch: forgivingSearch(transactionSearchSchema),
  beforeLoad: async ({ context, params, search }) => {
    await requireAccess(context, 'transactions');
    if (params.transactionId === undefined) {
      throw redirect({ to: '/refund-portal/transactions', search, replace: true });
    }
  },
  loader: async ({ context, params, abortController }) => {
    const { transactionId } = paramsOrNotFound(transactionParamsSchema, params);
    // A payment outside the user's locations is a 404 like a missing one.
    return loadRecordPage(context.api, transactionId, abortController, { record: getTransaction, history: getTransactionHistory });
  },
  notFoundComponent: () => <TransactionNotFound search={Route.useSearch()} />,
  errorComponent: ({ error }) => (
    <LoadFailure title="Transaction" error={error} back={{ to: '/refund-portal/transactions', label: 'Back to the search' }} />
  ),
  component: TransactionPage,
});

function TransactionPage() {
  const page = Route.useLoaderData();
  const transaction = page.record;
  const { permissions, api } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const mayOpenTicket = hasPermission(permissions.permissions, 'rp', 'add', [transaction.location_id]);
  return (
    <TransactionDetailScreen
      {...page}
      search={Route.useSearch()}
      onOpenTicket={
        mayOpenTicket
          ? async (amountCents, reason) => {
              const ticket = await openTicket(api, { transaction_id: transaction.transaction_id, amount_cents: amountCents, reason });
              await navigate({ to: '/refund-portal/ticket-info/$ticketId', params: { ticketId: String(ticket.ticket_id) }, search: {} });
            }
          : undefined
      }
    />
  );
}
