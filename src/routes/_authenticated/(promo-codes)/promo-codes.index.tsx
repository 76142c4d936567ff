import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import type { PromoCode } from '../../../contract/promo-codes';
import { promoCodeListQuerySchema } from '../../../contract/promo-code-search';
import type { LocationRef } from '../../../permissions/permissions-object';
import { hasPermission } from '../../../permissions/rules';
import { PromoCodesList } from './-components/promo-codes-list';
import { useListSearch } from '../../-shared/use-list-search';

/** Promo codes (spec §2: /promo-codes): filters, sort and page in the URL; the loader fetches that page. */
export const Route = createFileRoute('/_authenticated/(promo-codes)/promo-codes/')({
  validateSearch: forgivingSearch(promoCodeListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodes'),
  loader: async ({ context, deps, abortController }) => {
    const options = { signal: abortController.signal };
    // Imported here, not at the top: the entry chunk carries only this route's search check (docs/decisions.md).
    const api = import('../../../api/promo-codes');
    const [result, locations] = await Promise.all([
      loadListPage(async () => (await api).listPromoCodes(context.api, deps, options)),
      api.then((loaded) => loaded.listPromoCodeLocations(context.api, options)).catch(() => [] as LocationRef[]),
    ]);
    return { result, locations };
  },
  pendingMs: 400,
  pendingComponent: () => <PromoCodesPage result={null} locations={[]} />,
  component: function LoadedPromoCodesPage() {
    const { result, locations } = Route.useLoaderData();
    return <PromoCodesPage result={result} locations={locations} />;
  },
});

function PromoCodesPage({ result, locations }: { result: ListResult<PromoCode> | null; locations: readonly LocationRef[] }) {
  const list = useListSearch(Route);
  const { search } = list;
  const { permissions, api } = Route.useRouteContext();
  // The server's rule: edit permission at every location of the code.
  const canEdit = useCallback(
    (code: PromoCode) => code.location_ids.every((id) => hasPermission(permissions.permissions, 'pc', 'edit', [id])),
    [permissions],
  );
  return (
    <PromoCodesList
      {...list}
      result={result}
      locations={locations}
      canAdd={permissions.promoCodePermissions.canAdd}
      canEdit={canEdit}
      onExport={async (onProgress) => (await import('../../../api/promo-codes')).exportPromoCodesCsv(api, search, onProgress)}
    />
  );
}
