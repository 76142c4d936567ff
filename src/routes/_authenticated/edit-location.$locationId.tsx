import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/edit-location/$locationId')({
  beforeLoad: ({ context }) => requireAccess(context, 'editLocation'),
  component: () => <SectionPage title="Edit Location" />,
});
