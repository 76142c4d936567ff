import { createFileRoute, notFound, useRouter } from '@tanstack/react-router';
import { createPromoCode, setPromoCodeActive, updatePromoCode } from '../../../api/promo-codes';
import { requireAccess } from '../../-shared/require-access';
import { canonicalIdParam } from '../../../contract/ids';
import { hasPermission } from '../../../permissions/rules';
import { SectionPage } from '../../../ui/section-page';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { NotFound } from '../../../ui/not-found';
import { EditPromoCode } from './-components/edit-promo-code';
import { newDraft, promoCodeZone } from './-components/promo-code-draft';
import { PromoCodeForm } from './-components/promo-code-form';
import { invalidatePromoCodes } from './-components/invalidate-promo-codes';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

/**
 * Add (`/promo-codes/add`) and edit (`/promo-codes/edit/{promoCodeId}`) a promo code: spec §2's
 * `/promo-codes/{edit?}/{promoCodeId?}`, open to promo-code permission with canAdd or canEdit; the segment decides.
 */
export const Route = createFileRoute('/_authenticated/(promo-codes)/promo-codes/{-$edit}/{-$promoCodeId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodeEdit'),
  loader: async ({ context, params, abortController }) => {
    // Imported here, not at the top: the entry chunk carries no promo-code code
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const { getPromoCode, getPromoCodeHistory, listPromoCodeLocations } = await import('../../../api/promo-codes');
    // Every code's page needs the locations: their names and zones, and which of them the user may give a code.
    const locations = await listPromoCodeLocations(context.api, pageLoadOptions(abortController));
    if (params.edit !== 'edit') {
      if (params.promoCodeId !== undefined || !context.permissions.promoCodePermissions.canAdd) throw notFound();
      return { record: null, history: [], locations };
    }
    const promoCodeId = paramsOrNotFound(canonicalIdParam(), params.promoCodeId);
    const page = await loadRecordPage(context.api, promoCodeId, abortController, { record: getPromoCode, history: getPromoCodeHistory });
    return { ...page, locations };
  },
  notFoundComponent: () => (
    <NotFound
      title="Promo code not found"
      message="This promo code was not found, or it is not at one of your locations."
      back={{ to: '/promo-codes', label: 'Back to Promo Codes' }}
    />
  ),
  errorComponent: ({ error }) => (
    <LoadFailure title="Promo code" error={error} back={{ to: '/promo-codes', label: 'Back to Promo Codes' }} />
  ),
  component: PromoCodePage,
});

function PromoCodePage() {
  const { record: code, history, locations } = Route.useLoaderData();
  const { api, permissions } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  const may = (level: 'add' | 'edit') => (locationId: number) => hasPermission(permissions.permissions, 'pc', level, [locationId]);

  if (!code) {
    const choices = locations.filter((location) => may('add')(location.location_id));
    return (
      <SectionPage title="Add promo code">
        <PromoCodeForm
          defaultValues={newDraft(promoCodeZone([], choices))}
          locations={choices}
          submitLabel="Add promo code"
          onSave={async (input) => {
            await createPromoCode(api, input);
            await navigate({ to: '/promo-codes', search: {} });
          }}
        />
      </SectionPage>
    );
  }
  return (
    <EditPromoCode
      code={code}
      history={history}
      locations={locations}
      mayEdit={may('edit')}
      actions={{
        save: (input) => updatePromoCode(api, code.promo_code_id, input),
        setActive: (change) => setPromoCodeActive(api, code.promo_code_id, change),
        reload: () => invalidatePromoCodes(router),
      }}
    />
  );
}
