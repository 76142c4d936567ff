import { createFileRoute } from '@tanstack/react-router';
import { forgivingSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { settledSearchSchema } from '../../../contract/dashboard-queries';
import { SettledDashboard } from './-components/settled-dashboard';
import { useListSearch } from '../../-shared/use-list-search';

/** The settled dashboard: the range and location in the URL, the figures started by the loader. */
export const Route = createFileRoute('/_authenticated/(dashboards)/settled-dashboard')({
  validateSearch: forgivingSearch(settledSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'settledDashboard'),
  loader: async ({ context, deps, abortController }) => {
    // The API module and the range arithmetic come with the request, not with the entry chunk.
    const [{ getSettledDashboard }, { settledQueryOf }] = await Promise.all([
      import('../../../api/dashboards'),
      import('./-components/settled-range'),
    ]);
    try {
      return { data: await getSettledDashboard(context.api, settledQueryOf(deps), { signal: abortController.signal }), error: null };
    } catch (error) {
      if (abortController.signal.aborted) throw error;
      return { data: null, error: error instanceof Error && error.message ? error.message : 'The figures could not be loaded.' };
    }
  },
  pendingMs: 400,
  pendingComponent: () => <SettledPage data={null} error={null} />,
  component: function LoadedSettledPage() {
    const { data, error } = Route.useLoaderData();
    return <SettledPage data={data} error={error} />;
  },
});

function SettledPage({ data, error }: { data: Parameters<typeof SettledDashboard>[0]['data']; error: string | null }) {
  const { search, busy, onSearch, onRetry } = useListSearch(Route);
  const { api } = Route.useRouteContext();
  return (
    <SettledDashboard
      search={search}
      data={data}
      loadError={error}
      busy={busy}
      onSearch={(next) => onSearch(() => next)}
      onRetry={onRetry}
      onExport={async (onProgress) => {
        const [{ exportSettledCsv }, { settledQueryOf }] = await Promise.all([
          import('../../../api/dashboards'),
          import('./-components/settled-range'),
        ]);
        await exportSettledCsv(api, settledQueryOf(search), onProgress);
      }}
    />
  );
}
