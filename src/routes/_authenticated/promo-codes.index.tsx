import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/promo-codes/')({
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodes'),
  component: () => <SectionPage title="Promo Codes" />,
});
