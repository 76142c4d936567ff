import type { RegisteredRouter, RouteIds, useRouter } from '@tanstack/react-router';

/** A route's id as the generated tree names it (route groups included): a moved or renamed route fails to compile. */
export type RouteId = RouteIds<RegisteredRouter['routeTree']>;

/**
 * After a section's records changed: the listed routes on screen load again and cached pages of them go stale, so
 * going back to a list shows the change. `sync` waits until the reloaded data is on screen (see invalidatePromoCodes).
 */
export function invalidateRoutes(
  router: ReturnType<typeof useRouter>,
  routeIds: ReadonlySet<RouteId>,
  options: { sync?: boolean } = {},
): Promise<void> {
  return router.invalidate({ filter: (match) => routeIds.has(match.routeId as RouteId), sync: options.sync });
}
