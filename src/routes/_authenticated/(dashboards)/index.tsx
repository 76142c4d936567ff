import { createFileRoute, Link, redirect, useRouter } from '@tanstack/react-router';
import { visibleNavigation } from '../../-shared/navigation';
import { forgivingSearch } from '../../-shared/list-route';
import { useAuthView } from '../../-shared/session-services';
import { realtimeQuerySchema } from '../../../contract/dashboard-queries';
import type { RealtimeSummary } from '../../../contract/dashboards';
import { SectionPage } from '../../../ui/section-page';
import { RealtimeDashboard } from './-components/realtime-dashboard';

type Loaded = { summary: RealtimeSummary; error: null } | { summary: null; error: string } | null;

/** `/`: the real-time dashboard when allowed, else the settled dashboard, else a home page (spec §2). */
export const Route = createFileRoute('/_authenticated/(dashboards)/')({
  validateSearch: forgivingSearch(realtimeQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => {
    const { permissions } = context;
    if (!permissions.hasRealTimeDashboardPermission && permissions.hasSettledDashboardPermission) {
      throw redirect({ to: '/settled-dashboard' });
    }
  },
  // The figures start with the route's code; the live stream takes over once the screen is up.
  loader: async ({ context, deps, abortController }): Promise<Loaded> => {
    if (!context.permissions.hasRealTimeDashboardPermission) return null;
    // The API module comes with the request, not with the entry chunk.
    const { getRealtimeSummary } = await import('../../../api/dashboards');
    try {
      return { summary: await getRealtimeSummary(context.api, deps, { signal: abortController.signal }), error: null };
    } catch (error) {
      if (abortController.signal.aborted) throw error;
      return { summary: null, error: error instanceof Error && error.message ? error.message : 'The figures could not be loaded.' };
    }
  },
  component: HomeOrRealTimeDashboard,
});

function HomeOrRealTimeDashboard() {
  const { permissions, isProductionHost, api } = Route.useRouteContext();
  const loaded = Route.useLoaderData();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const router = useRouter();
  const view = useAuthView();
  if (permissions.hasRealTimeDashboardPermission) {
    return (
      <RealtimeDashboard
        api={api}
        query={search}
        initial={loaded?.summary ?? null}
        loadError={loaded?.error ?? null}
        onQuery={(query) => void navigate({ search: query })}
        onRetry={() => void router.invalidate()}
      />
    );
  }
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
