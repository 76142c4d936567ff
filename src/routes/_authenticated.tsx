import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { visibleNavigation } from './-shared/navigation';
import { useGuardedLogout } from './-shared/guarded-logout';
import { useAuthView } from './-shared/session-services';
import { AppLayout } from '../ui/app-layout';

/** Every page but /login sits under this pathless layout: no session token → /login, remembering where to return. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const auth = await context.auth.settled();
    if (auth.status !== 'authenticated') {
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    return { permissions: auth.permissions };
  },
  component: AuthenticatedLayout,
});

/** The signed-in frame, its sidebar listing the sections this session may open. */
function AuthenticatedLayout() {
  const { permissions, isProductionHost } = Route.useRouteContext();
  const view = useAuthView();
  const { logout, dialog: logoutDialog } = useGuardedLogout(permissions.email);
  const authEnabled = view.status === 'authenticated' && view.authEnabled;
  const entries = visibleNavigation({ permissions, isProductionHost, authEnabled });
  return (
    <AppLayout email={permissions.email} entries={entries} onLogout={logout}>
      <Outlet />
      {logoutDialog}
    </AppLayout>
  );
}
