import type { useRouter } from '@tanstack/react-router';

/** The routes whose loaders show locations: what a change to a location makes stale. */
const LOCATION_ROUTES = new Set<string>([
  '/_authenticated/locations',
  '/_authenticated/edit-location/$locationId',
  '/_authenticated/add-location/success',
]);

/**
 * After a location was added, changed or deleted: the location routes on screen load again, and cached pages of the
 * list are marked stale, so going back to the list shows the change.
 */
export function invalidateLocations(router: ReturnType<typeof useRouter>): Promise<void> {
  return router.invalidate({ filter: (match) => LOCATION_ROUTES.has(match.routeId) });
}
