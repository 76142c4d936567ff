import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { exportLocationsCsv, listLocations } from '../../../api/locations';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { requireAccess } from '../../-shared/require-access';
import type { Location } from '../../../contract/locations';
import { locationListQuerySchema } from '../../../contract/location-search';
import { hasPermission } from '../../../permissions/rules';
import { LocationsList } from './-components/locations-list';

/**
 * The Locations list (docs/sections.md, the worked example): filter, sort and page live in the URL, checked with
 * the contract's query schema; the loader fetches exactly that page; the screen only asks for a new URL.
 */
export const Route = createFileRoute('/_authenticated/(locations)/locations')({
  // The pending screen is the list itself, loading: it comes with the section, never with the entry.
  validateSearch: forgivingSearch(locationListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'locations'),
  loader: ({ context, deps, abortController }) => loadList(abortController, (options) => listLocations(context.api, deps, options)),
  // A new sort or page keeps the rows on screen (marked busy) while the next page loads; only a slow answer turns
  // them into the skeleton, so quick changes neither flash nor take the keyboard focus away.
  pendingMs: 400,
  pendingComponent: () => <LocationsPage loaded={null} />,
  component: function LoadedLocationsPage() {
    return <LocationsPage loaded={Route.useLoaderData()} />;
  },
});

function LocationsPage({ loaded }: { loaded: LoadedList<Location> | null }) {
  const { permissions } = Route.useRouteContext();
  const canEdit = useCallback(
    (locationId: number) => hasPermission(permissions.permissions, 'lo', 'edit', [locationId]),
    [permissions],
  );
  return (
    <LocationsList
      {...useListPage(Route, loaded, exportLocationsCsv)}
      canAdd={permissions.featureLevelLocations.canAddLocation}
      canEdit={canEdit}
    />
  );
}
