import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/promo-codes/{-$edit}/{-$promoCodeId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodeEdit'),
  component: () => <SectionPage title="Promo Code" />,
});
