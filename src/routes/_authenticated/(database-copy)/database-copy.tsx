import { createFileRoute } from '@tanstack/react-router';
import { positiveIdSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { DatabaseCopyPage } from './-components/database-copy-page';

/** `?copy=12`: the copy whose progress is on screen, so that a reload shows it again (outside the route options,
 * where TypeScript infers the key's literal type). */
const copySearch = positiveIdSearch('copy');

/** Database Copy (issue 14): superuser only, absent on the production admin host (src/routes/-shared/route-access.ts). */
export const Route = createFileRoute('/_authenticated/(database-copy)/database-copy')({
  validateSearch: copySearch,
  beforeLoad: ({ context }) => requireAccess(context, 'databaseCopy'),
  loader: async ({ context, abortController }) => {
    const options = pageLoadOptions(abortController);
    // Imported here, not at the top: the entry chunk carries only the guard
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = await import('../../../api/database-copy');
    const [choices, copies] = await Promise.all([
      api.getCopyOptions(context.api, options),
      api.listCopies(context.api, options),
    ]);
    return { choices, copies };
  },
  errorComponent: ({ error }) => <LoadFailure title="Database Copy" error={error} />,
  component: function LoadedDatabaseCopy() {
    const { choices, copies } = Route.useLoaderData();
    const { api } = Route.useRouteContext();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <DatabaseCopyPage
        api={api}
        choices={choices}
        copies={copies}
        shownCopyId={search.copy ?? null}
        onShowCopy={(copy) => void navigate({ search: copy === null ? {} : { copy } })}
      />
    );
  },
});
