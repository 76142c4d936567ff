import type { useRouter } from '@tanstack/react-router';
import { invalidateRoutes, type RouteId } from '../../../-shared/invalidate-routes';

/** The routes whose loaders show locations: what a change to a location makes stale. */
const LOCATION_ROUTES = new Set<RouteId>([
  '/_authenticated/(locations)/locations',
  '/_authenticated/(locations)/edit-location/$locationId',
  '/_authenticated/(locations)/add-location/success',
]);

/** After a location was added, changed or deleted. */
export function invalidateLocations(router: ReturnType<typeof useRouter>): Promise<void> {
  return invalidateRoutes(router, LOCATION_ROUTES);
}
