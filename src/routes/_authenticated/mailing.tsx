import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/mailing')({
  beforeLoad: ({ context }) => requireAccess(context, 'mailing'),
  component: () => <SectionPage title="Mailing" />,
});
