import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { visibleNavigation } from '../app/navigation';
import { useAuthView, useSessionServices } from '../app/session-services';
import { Sidebar } from './sidebar/sidebar';
import { useMediaQuery } from './use-media-query';

const authenticatedRoute = getRouteApi('/_authenticated');
/** Spec §2: the sidebar is open by default on windows 1200 px wide or more, collapsed below. */
export const DESKTOP_QUERY = '(min-width: 1200px)';

/** The signed-in frame: the sidebar beside the current page. */
export function AppLayout() {
  const { permissions, isProductionHost } = authenticatedRoute.useRouteContext();
  const view = useAuthView();
  const { logout } = useSessionServices();
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // null: follow the window width; a click on the toggle pins the user's choice until the width class changes.
  const [choice, setChoice] = useState<{ open: boolean; desktop: boolean } | null>(null);
  const open = choice && choice.desktop === desktop ? choice.open : desktop;
  const entries = visibleNavigation({
    permissions,
    isProductionHost,
    authEnabled: view.status === 'authenticated' && view.authEnabled,
  });
  return (
    <div className={open ? 'app-layout sidebar-is-open' : 'app-layout'}>
      <Sidebar
        email={permissions.email}
        entries={entries}
        open={open}
        onToggle={() => setChoice({ open: !open, desktop })}
        onNavigate={() => {
          // On a phone the open sidebar covers the page: close it once a section is chosen.
          if (!desktop) setChoice({ open: false, desktop });
        }}
        onLogout={logout}
      />
      {open && !desktop && (
        <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setChoice({ open: false, desktop })} />
      )}
      <main className="app-main" id="main">
        <Outlet />
      </main>
    </div>
  );
}
