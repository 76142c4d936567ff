import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '../app/router-context';
import { ConsoleRouteError } from '../app/console-route-error';
import { SectionPage } from '../ui/section-page';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: ConsoleRouteError,
  notFoundComponent: () => (
    <SectionPage title="Page not found">
      <p>There is no page at this address.</p>
    </SectionPage>
  ),
});
