import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { exportLocationsCsv, listLocations } from '../../../api/locations';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import type { Location } from '../../../contract/locations';
import { locationListQuerySchema } from '../../../contract/location-search';
import { hasPermission } from '../../../permissions/rules';
import { LocationsList } from './-components/locations-list';
import { useListSearch } from '../../-shared/use-list-search';

/**
 * The Locations list (docs/sections.md, the worked example): filter, sort and page live in the URL, checked with
 * the contract's query schema; the loader fetches exactly that page; the screen only asks for a new URL.
 */
export const Route = createFileRoute('/_authenticated/(locations)/locations')({
  // The pending screen is the list itself, loading: it comes with the section, never with the entry.
  validateSearch: forgivingSearch(locationListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'locations'),
  loader: ({ context, deps, abortController }) =>
    loadListPage(() => listLocations(context.api, deps, { signal: abortController.signal })),
  // A new sort or page keeps the rows on screen (marked busy) while the next page loads; only a slow answer turns
  // them into the skeleton, so quick changes neither flash nor take the keyboard focus away.
  pendingMs: 400,
  pendingComponent: () => <LocationsPage result={null} />,
  component: function LoadedLocationsPage() {
    return <LocationsPage result={Route.useLoaderData()} />;
  },
});

function LocationsPage({ result }: { result: ListResult<Location> | null }) {
  const list = useListSearch(Route);
  const { search } = list;
  const { permissions, api } = Route.useRouteContext();
  const canEdit = useCallback(
    (locationId: number) => hasPermission(permissions.permissions, 'lo', 'edit', [locationId]),
    [permissions],
  );
  return (
    <LocationsList
      {...list}
      result={result}
      canAdd={permissions.featureLevelLocations.canAddLocation}
      canEdit={canEdit}
      onExport={(onProgress) => exportLocationsCsv(api, search, onProgress)}
    />
  );
}
