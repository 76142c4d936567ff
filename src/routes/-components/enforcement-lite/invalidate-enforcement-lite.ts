import type { useRouter } from '@tanstack/react-router';

const LITE_ROUTES = new Set<string>([
  '/_authenticated/enforcement-lite/',
  '/_authenticated/enforcement-lite/edit-location/$locationId',
  '/_authenticated/enforcement-lite/edit-user/$userId',
  '/_authenticated/enforcement-lite/add-user',
]);

/** After a lite location or officer changed: the section's routes on screen load again, cached list pages go stale. */
export function invalidateEnforcementLite(router: ReturnType<typeof useRouter>): Promise<void> {
  return router.invalidate({ filter: (match) => LITE_ROUTES.has(match.routeId) });
}
