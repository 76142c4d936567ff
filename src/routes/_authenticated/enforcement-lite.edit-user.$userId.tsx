import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/enforcement-lite/edit-user/$userId')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  component: () => <SectionPage title="Enforcement Lite: Edit User" />,
});
