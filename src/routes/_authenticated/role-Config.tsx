import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/role-Config')({
  beforeLoad: ({ context }) => requireAccess(context, 'userRoles'),
  component: () => <SectionPage title="User Roles" />,
});
