import type { useRouter } from '@tanstack/react-router';
import { invalidateRoutes, type RouteId } from '../../../-shared/invalidate-routes';

/** The routes whose loaders show promo codes: what a change to a code makes stale. */
const PROMO_CODE_ROUTES = new Set<RouteId>([
  '/_authenticated/(promo-codes)/promo-codes/',
  '/_authenticated/(promo-codes)/promo-codes/{-$edit}/{-$promoCodeId}',
]);

/**
 * After a code was saved, deactivated or activated: its page loads its record and History again, and the promise
 * settles once they are on screen (`sync`). Without `sync` the router reloads a page already shown in the background,
 * and router-core drops such a reload's result when the router's matches changed before it ended (`runBackground`):
 * the History could keep showing "Created" only until a reload.
 */
export function invalidatePromoCodes(router: ReturnType<typeof useRouter>): Promise<void> {
  return invalidateRoutes(router, PROMO_CODE_ROUTES, { sync: true });
}
