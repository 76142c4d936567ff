import { getRouteApi, Link, Outlet } from '@tanstack/react-router';
import { NAVIGATION } from '../app/navigation';
import { canOpen } from '../app/route-access';
import { useSessionServices } from '../app/session-services';

const authenticatedRoute = getRouteApi('/_authenticated');

/** The signed-in frame: product title, the sections this user may open, who is signed in, and Logout. */
export function AppLayout() {
  const { permissions, isProductionHost } = authenticatedRoute.useRouteContext();
  const { logout } = useSessionServices();
  const entries = NAVIGATION.filter((entry) => canOpen(entry.section, { permissions, isProductionHost }));
  return (
    <div className="app-layout">
      <header className="app-header">
        <span className="app-title">Lightning Pay Admin</span>
        <span className="app-user">
          <span>{permissions.email}</span>
          <button type="button" className="link-button" onClick={logout}>
            Logout
          </button>
        </span>
      </header>
      <nav aria-label="Sections" className="app-nav">
        <ul>
          {entries.map((entry) => (
            <li key={entry.to}>
              <Link to={entry.to} activeProps={{ 'aria-current': 'page', className: 'active' }}>
                {entry.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
