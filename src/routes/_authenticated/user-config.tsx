import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/user-config')({
  beforeLoad: ({ context }) => requireAccess(context, 'users'),
  component: () => <SectionPage title="Users" />,
});
