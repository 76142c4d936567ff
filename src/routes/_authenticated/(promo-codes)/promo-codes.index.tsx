import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { requireAccess } from '../../-shared/require-access';
import type { PromoCode } from '../../../contract/promo-codes';
import { promoCodeListQuerySchema } from '../../../contract/promo-code-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { hasPermission } from '../../../permissions/rules';
import { PromoCodesList } from './-components/promo-codes-list';

/** Promo codes (spec §2: /promo-codes): filters, sort and page in the URL; the loader fetches that page. */
export const Route = createFileRoute('/_authenticated/(promo-codes)/promo-codes/')({
  validateSearch: forgivingSearch(promoCodeListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodes'),
  loader: async ({ context, deps, abortController }) => {
    // Imported here, not at the top: the entry chunk carries only this route's search check
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = await import('../../../api/promo-codes');
    return loadList(
      abortController,
      (options) => api.listPromoCodes(context.api, deps, options),
      (options) => api.listPromoCodeLocations(context.api, options),
    );
  },
  pendingMs: 400,
  pendingComponent: () => <PromoCodesPage loaded={null} />,
  component: function LoadedPromoCodesPage() {
    return <PromoCodesPage loaded={Route.useLoaderData()} />;
  },
});

function PromoCodesPage({ loaded }: { loaded: LoadedList<PromoCode, LocationRef> | null }) {
  const { permissions } = Route.useRouteContext();
  // The server's rule: edit permission at every location of the code.
  const canEdit = useCallback(
    (code: PromoCode) => code.location_ids.every((id) => hasPermission(permissions.permissions, 'pc', 'edit', [id])),
    [permissions],
  );
  return (
    <PromoCodesList
      {...useListPage(Route, loaded, async (...args) => (await import('../../../api/promo-codes')).exportPromoCodesCsv(...args))}
      canAdd={permissions.promoCodePermissions.canAdd}
      canEdit={canEdit}
    />
  );
}
