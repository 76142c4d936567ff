import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/rate-config')({
  beforeLoad: ({ context }) => requireAccess(context, 'rateConfig'),
  component: () => <SectionPage title="Rate Configuration" />,
});
