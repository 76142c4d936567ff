import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import { forgivingSearch } from '../../-shared/list-route';
import { loadList, useListPage, type LoadedList } from '../../-shared/list-page';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';
import { requireAccess } from '../../-shared/require-access';
import { citationIdField, type Citation } from '../../../contract/citations';
import { citationListQuerySchema } from '../../../contract/citation-search';
import type { AuditEntry } from '../../../contract/lists';
import { hasPermission } from '../../../permissions/rules';
import { LoadFailure } from '../../../ui/load-failure';
import { NotFound } from '../../../ui/not-found';
import { CitationPage } from './-components/citation-page';
import { CitationsList } from './-components/citations-list';

/**
 * The office's Citations (issue 38), within Enforcement: `/citations` is the list (filters, sort and page in the URL),
 * `/citations/{citationId}` one citation. One route for both, because every route adds its lazy-chunk references to
 * the entry chunk, which /list's officers load on their phones (150 KB budget).
 */
export const Route = createFileRoute('/_authenticated/(enforcement)/citations/{-$citationId}')({
  validateSearch: forgivingSearch(citationListQuerySchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'enforcement'),
  loader: async ({ context, deps, params, abortController }): Promise<Loaded> => {
    // Imported here: the entry chunk carries only the search check (decision 0015).
    const api = await import('../../../api/citations');
    if (params.citationId === undefined) {
      return { list: await loadList(abortController, (options) => api.listCitations(context.api, deps, options)) };
    }
    const citationId = paramsOrNotFound(citationIdField, params.citationId);
    return { one: await loadRecordPage(context.api, citationId, abortController, { record: api.getCitation, history: api.getCitationHistory }) };
  },
  pendingMs: 400,
  pendingComponent: PendingCitations,
  notFoundComponent: () => (
    <NotFound
      title="Citation not found"
      message="This citation was not found, or it is not at one of your enforcement locations."
      back={{ to: '/citations/{-$citationId}', label: 'Back to Citations' }}
    />
  ),
  errorComponent: ({ error }) => <LoadFailure title="Citation" error={error} back={{ to: '/citations/{-$citationId}', label: 'Back to Citations' }} />,
  component: LoadedCitations,
});

function PendingCitations() {
  const { citationId }: { citationId?: string | undefined } = Route.useParams();
  return citationId === undefined ? <CitationsPage loaded={null} /> : null;
}

function LoadedCitations() {
  const loaded: Loaded = Route.useLoaderData();
  return loaded.one ? <OneCitation {...loaded.one} /> : <CitationsPage loaded={loaded.list ?? null} />;
}

type Loaded = { list?: LoadedList<Citation>; one?: { record: Citation; history: AuditEntry[] } };

function CitationsPage({ loaded }: { loaded: LoadedList<Citation> | null }) {
  const { permissions } = Route.useRouteContext();
  const page = useListPage(Route, loaded, async (...args) => (await import('../../../api/citations')).exportCitationsCsv(...args));
  // The location filter offers the user's enforcement locations, which the session already holds.
  return <CitationsList {...page} locations={permissions.featureLevelLocations.enforcementLocations} />;
}

function OneCitation({ record: citation, history }: { record: Citation; history: AuditEntry[] }) {
  const { api, permissions } = Route.useRouteContext();
  const router = useRouter();
  const { citation_id: citationId } = citation;
  // Kept from render to render: a photo is read again only for another citation.
  const actions = useMemo(
    () => ({
      void: async (reason: string, version: number) => (await import('../../../api/citations')).voidCitation(api, citationId, { reason, version }),
      photo: async (sha256: string) => (await import('../../../api/citations')).getCitationPhoto(api, citationId, sha256),
      reload: () => router.invalidate(),
    }),
    [api, citationId, router],
  );
  return (
    <CitationPage
      citation={citation}
      history={history}
      mayVoid={hasPermission(permissions.permissions, 'e', 'edit', [citation.location_id])}
      actions={actions}
    />
  );
}
