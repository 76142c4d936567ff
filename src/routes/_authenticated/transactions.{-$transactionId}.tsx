import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/transactions/{-$transactionId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'transactions'),
  component: () => <SectionPage title="Transactions" />,
});
