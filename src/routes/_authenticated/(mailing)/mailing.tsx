import { createFileRoute } from '@tanstack/react-router';
import { positiveIdSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { MailingPage } from './-components/mailing-page';

/** `?mailing=12`: the mailing whose progress is on screen, so that a reload shows it again (outside the route options,
 * where TypeScript infers the key's literal type). */
const mailingSearch = positiveIdSearch('mailing');

/** Mailing (issue 14): superuser only, in the console (src/routes/-shared/route-access.ts) and on the server. */
export const Route = createFileRoute('/_authenticated/(mailing)/mailing')({
  validateSearch: mailingSearch,
  beforeLoad: ({ context }) => requireAccess(context, 'mailing'),
  loader: async ({ context, abortController }) => {
    const options = pageLoadOptions(abortController);
    // Imported here, not at the top: the entry chunk carries only the guard
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = await import('../../../api/mailing');
    const [choices, page] = await Promise.all([api.getMailingOptions(context.api, options), api.listMailings(context.api, options)]);
    return { choices, mailings: page.rows };
  },
  errorComponent: ({ error }) => <LoadFailure title="Mailing" error={error} />,
  component: function LoadedMailing() {
    const { choices, mailings } = Route.useLoaderData();
    const { api } = Route.useRouteContext();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <MailingPage
        api={api}
        options={choices}
        mailings={mailings}
        shownId={search.mailing ?? null}
        onShow={(mailing) => void navigate({ search: { mailing } })}
      />
    );
  },
});
