import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/rate-selection')({
  beforeLoad: ({ context }) => requireAccess(context, 'rateSelection'),
  component: () => <SectionPage title="Configure Rates" />,
});
