import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { rateChangeListQuerySchema } from '../../../contract/rate-change-search';
import type { RateChange } from '../../../contract/rates';
import { hasPermission } from '../../../permissions/rules';
import { RateChangesList } from './-components/rate-changes-list';
import type { RateLocationRef } from './-components/rate-location-choice';
import { useListSearch } from '../../-shared/use-list-search';

/** Spec §2 /rates (rate settings view): the rate changes of the user's locations, filters, sort and page in the URL. */
export const Route = createFileRoute('/_authenticated/(rates)/rates/')({
  validateSearch: forgivingSearch(rateChangeListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateChanges'),
  loader: async ({ context, deps, abortController }) => {
    const options = { signal: abortController.signal };
    // Imported here, not at the top: the entry chunk carries only this route's search check (docs/decisions.md).
    const api = import('../../../api/rates');
    const [result, locations] = await Promise.all([
      loadListPage(async () => (await api).listRateChanges(context.api, deps, options)),
      api.then((loaded) => loaded.listRateLocations(context.api, options)).catch(() => [] as RateLocationRef[]),
    ]);
    return { result, locations };
  },
  pendingMs: 400,
  pendingComponent: () => <RateChangesPage result={null} locations={[]} />,
  component: function LoadedRateChangesPage() {
    const { result, locations } = Route.useLoaderData();
    return <RateChangesPage result={result} locations={locations} />;
  },
});

function RateChangesPage({ result, locations }: { result: ListResult<RateChange> | null; locations: readonly RateLocationRef[] }) {
  const list = useListSearch(Route);
  const { search } = list;
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const canEdit = useCallback(
    (locationId: number) => hasPermission(permissions.permissions, 'rs', 'edit', [locationId]),
    [permissions],
  );
  return (
    <RateChangesList
      {...list}
      result={result}
      locations={locations}
      canEdit={canEdit}
      canSchedule={permissions.rateSettingsPermissions.canEdit}
      onExport={async (onProgress) => (await import('../../../api/rates')).exportRateChangesCsv(api, search, onProgress)}
      onCancelChange={async (change) => {
        const { getRateLocation, cancelRateChange } = await import('../../../api/rates');
        // The cancel names the location's schedule as it is now: the dialog showed this change, and the server
        // refuses (409) if it was applied or cancelled meanwhile.
        const { schedule_version } = await getRateLocation(api, change.location_id);
        await cancelRateChange(api, change.rate_set_id, schedule_version);
        await router.invalidate();
      }}
    />
  );
}
