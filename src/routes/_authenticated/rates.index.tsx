import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/rates/')({
  beforeLoad: ({ context }) => requireAccess(context, 'rateChanges'),
  component: () => <SectionPage title="Rate Changes" />,
});
