import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { requireAccess } from '../../-shared/require-access';
import { rateChangeListQuerySchema } from '../../../contract/rate-change-search';
import type { RateChange } from '../../../contract/rates';
import { hasPermission } from '../../../permissions/rules';
import { RateChangesList } from './-components/rate-changes-list';
import type { RateLocationRef } from './-components/rate-location-choice';

/** Spec §2 /rates (rate settings view): the rate changes of the user's locations, filters, sort and page in the URL. */
export const Route = createFileRoute('/_authenticated/(rates)/rates/')({
  validateSearch: forgivingSearch(rateChangeListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateChanges'),
  loader: async ({ context, deps, abortController }) => {
    // Imported here, not at the top: the entry chunk carries only this route's search check
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = await import('../../../api/rates');
    return loadList(
      abortController,
      (options) => api.listRateChanges(context.api, deps, options),
      (options) => api.listRateLocations(context.api, options),
    );
  },
  pendingMs: 400,
  pendingComponent: () => <RateChangesPage loaded={null} />,
  component: function LoadedRateChangesPage() {
    return <RateChangesPage loaded={Route.useLoaderData()} />;
  },
});

function RateChangesPage({ loaded }: { loaded: LoadedList<RateChange, RateLocationRef> | null }) {
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const canEdit = useCallback(
    (locationId: number) => hasPermission(permissions.permissions, 'rs', 'edit', [locationId]),
    [permissions],
  );
  return (
    <RateChangesList
      {...useListPage(Route, loaded, async (...args) => (await import('../../../api/rates')).exportRateChangesCsv(...args))}
      canEdit={canEdit}
      canSchedule={permissions.rateSettingsPermissions.canEdit}
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
