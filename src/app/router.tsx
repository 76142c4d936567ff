import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen';
import type { RouterContext } from '../routes/-shared/router-context';
import { Spinner } from '../ui/spinner';
import { RouteLoadFailure } from '../routes/-shared/route-load-failure';

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    // Guards wait for authentication to settle; the spinner shows at once while they do (spec §2).
    defaultPendingComponent: () => <Spinner />,
    defaultPendingMs: 0,
    defaultPendingMinMs: 0,
    defaultErrorComponent: RouteLoadFailure,
    defaultPreload: false,
    caseSensitive: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
