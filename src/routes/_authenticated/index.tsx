import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { visibleNavigation } from '../../app/navigation';
import { useAuthView } from '../../app/session-services';
import { SectionPage } from '../../ui/section-page';

/** `/`: the real-time dashboard when allowed, else the settled dashboard, else a home page (spec §2). */
export const Route = createFileRoute('/_authenticated/')({
  beforeLoad: ({ context }) => {
    const { permissions } = context;
    if (!permissions.hasRealTimeDashboardPermission && permissions.hasSettledDashboardPermission) {
      throw redirect({ to: '/settled-dashboard' });
    }
  },
  component: HomeOrRealTimeDashboard,
});

function HomeOrRealTimeDashboard() {
  const { permissions, isProductionHost } = Route.useRouteContext();
  const view = useAuthView();
  if (permissions.hasRealTimeDashboardPermission) return <SectionPage title="Real Time Dashboard" />;
  const authEnabled = view.status === 'authenticated' && view.authEnabled;
  const sections = visibleNavigation({ permissions, isProductionHost, authEnabled });
  return (
    <SectionPage title="Home">
      {sections.length === 0 ? (
        <p>
          Your account ({permissions.email}) has no sections assigned yet. Ask an administrator to grant you access.
        </p>
      ) : (
        <>
          <p>Choose a section:</p>
          <ul className="link-list">
            {sections.map((entry) => (
              <li key={entry.to}>
                <Link to={entry.to}>{entry.label}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </SectionPage>
  );
}
