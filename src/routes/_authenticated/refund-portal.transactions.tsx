import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/refund-portal/transactions')({
  beforeLoad: ({ context }) => requireAccess(context, 'refundPortal'),
  component: () => <SectionPage title="Refund Portal Transactions" />,
});
