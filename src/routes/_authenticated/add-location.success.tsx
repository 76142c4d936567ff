import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/add-location/success')({
  beforeLoad: ({ context }) => requireAccess(context, 'addLocation'),
  component: () => <SectionPage title="Location Added" />,
});
