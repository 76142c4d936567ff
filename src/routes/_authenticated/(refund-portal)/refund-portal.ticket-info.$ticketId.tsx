import { createFileRoute, useRouter } from '@tanstack/react-router';
import { addTicketNote, decideTicket, refundPayment } from '../../../api/refunds';
import { requireAccess } from '../../-shared/require-access';
import { canonicalIdParam, MAX_BIGINT_ID } from '../../../contract/ids';
import { hasPermission } from '../../../permissions/rules';
import { LoadFailure } from '../../../ui/load-failure';
import { NotFound } from '../../../ui/not-found';
import { TicketDetailScreen } from './-components/refunds/ticket-detail';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

/** One refund ticket (spec §2: /refund-portal/ticket-info/{ticketId}) with its payment, notes, History and actions. */
export const Route = createFileRoute('/_authenticated/(refund-portal)/refund-portal/ticket-info/$ticketId')({
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  loader: async ({ context, params, abortController }) => {
    const ticketId = paramsOrNotFound(canonicalIdParam(MAX_BIGINT_ID), params.ticketId);
    // Imported here, not at the top: the entry chunk carries no refund-portal code
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const { getTicket, getTicketHistory } = await import('../../../api/refunds');
    return loadRecordPage(context.api, ticketId, abortController, { record: getTicket, history: getTicketHistory });
  },
  notFoundComponent: () => (
    <NotFound
      title="Ticket not found"
      message="This ticket was not found, or it is not at one of your locations."
      back={{ to: '/refund-portal', label: 'Back to Refund Tickets' }}
    />
  ),
  errorComponent: ({ error }) => (
    <LoadFailure title="Ticket" error={error} back={{ to: '/refund-portal', label: 'Back to Refund Tickets' }} />
  ),
  component: TicketPage,
});

function TicketPage() {
  const page = Route.useLoaderData();
  const ticket = page.record;
  const { permissions, api } = Route.useRouteContext();
  const router = useRouter();
  const reload = () => router.invalidate();
  return (
    <TicketDetailScreen
      {...page}
      canEdit={hasPermission(permissions.permissions, 'rp', 'edit', [ticket.location_id])}
      actions={{
        addNote: async (body) => {
          await addTicketNote(api, ticket.ticket_id, body);
          await reload();
        },
        decide: async (decision) => {
          await decideTicket(api, ticket.ticket_id, decision);
          await reload();
        },
        refund: async (amountCents, reason, key) => {
          const result = await refundPayment(
            api,
            ticket.transaction_id,
            { amount_cents: amountCents, reason, ticket_id: ticket.ticket_id },
            key,
          );
          await reload();
          return result;
        },
      }}
    />
  );
}
