import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/rates/changes/edit/{-$locationId}/{-$rateId}/{-$currentRsId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'rateChangeEdit'),
  component: () => <SectionPage title="Edit Rate Change" />,
});
