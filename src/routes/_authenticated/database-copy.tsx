import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/database-copy')({
  beforeLoad: ({ context }) => requireAccess(context, 'databaseCopy'),
  component: () => <SectionPage title="Database Copy" />,
});
