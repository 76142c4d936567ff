import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from './-shared/router-context';
import { RouteLoadFailure } from './-shared/route-load-failure';
import { NotFound } from '../ui/not-found';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: RouteLoadFailure,
  notFoundComponent: () => <NotFound title="Page not found" message="There is no page at this address." />,
});
