import { createFileRoute } from '@tanstack/react-router';
import { pageLoadOptions } from '../../../api/page-load';
import { forgivingSearch, loadListPage } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import type { EnforcementLiteSearch } from '../../../contract/enforcement-lite-search';
import { LiteLists, type LiteListResult } from './-components/lite-lists';
import { useListSearch } from '../../-shared/use-list-search';

/**
 * Enforcement Lite (superuser only, docs/enforcement-lite.md): lite locations or officers (`?show=officers`), the
 * list's filter, sort and page in the URL; the loader fetches exactly that page.
 */
export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/')({
  // The URL's search is checked with the contract's schema in the loader, not here: what validateSearch uses joins
  // the entry chunk, which /list pays for, and this section is for a handful of superusers. A value the schema
  // refuses is dropped before the request, as forgivingSearch does elsewhere; the screen shows only known values.
  validateSearch: (search: Record<string, unknown>) => search as EnforcementLiteSearch,
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  loader: async ({ context, deps, abortController }): Promise<LiteListResult> => {
    const [api, contract] = await Promise.all([import('../../../api/enforcement-lite'), import('../../../contract/enforcement-lite')]);
    const search = forgivingSearch(contract.enforcementLiteSearchSchema)['~standard'].validate(deps).value;
    const queries = contract.liteListQueries(search);
    // A refusal is said on the page, in place: no toast.
    const options = pageLoadOptions(abortController);
    return search.show === 'officers'
      ? { show: 'officers', result: await loadListPage(() => api.listLiteOfficers(context.api, queries.officers, options)) }
      : { show: 'locations', result: await loadListPage(() => api.listLiteLocations(context.api, queries.locations, options)) };
  },
  pendingMs: 400,
  pendingComponent: () => <EnforcementLitePage list={null} />,
  component: function LoadedEnforcementLitePage() {
    return <EnforcementLitePage list={Route.useLoaderData()} />;
  },
});

function EnforcementLitePage({ list }: { list: LiteListResult | null }) {
  return <LiteLists {...useListSearch(Route)} list={list} />;
}
