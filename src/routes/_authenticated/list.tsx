import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/list')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcement'),
  component: () => <SectionPage title="Enforcement" />,
});
