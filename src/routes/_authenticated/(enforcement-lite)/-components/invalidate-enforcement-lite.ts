import type { useRouter } from '@tanstack/react-router';
import { invalidateRoutes, type RouteId } from '../../../-shared/invalidate-routes';

const LITE_ROUTES = new Set<RouteId>([
  '/_authenticated/(enforcement-lite)/enforcement-lite/',
  '/_authenticated/(enforcement-lite)/enforcement-lite/edit-location/$locationId',
  '/_authenticated/(enforcement-lite)/enforcement-lite/edit-user/$userId',
  '/_authenticated/(enforcement-lite)/enforcement-lite/add-user',
]);

/** After a lite location or officer changed. */
export function invalidateEnforcementLite(router: ReturnType<typeof useRouter>): Promise<void> {
  return invalidateRoutes(router, LITE_ROUTES);
}
