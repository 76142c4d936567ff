import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/settled-dashboard')({
  beforeLoad: ({ context }) => requireAccess(context, 'settledDashboard'),
  component: () => <SectionPage title="Settled Dashboard" />,
});
