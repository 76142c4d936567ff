import { createFileRoute, useRouter } from '@tanstack/react-router';
import { getLiteOfficer, getLiteOfficerHistory, listLiteLocationChoices, updateLiteOfficer } from '../../../api/enforcement-lite';
import { requireAccess } from '../../-shared/require-access';
import { liteOfficerParamsSchema } from '../../../contract/enforcement-lite';
import { EditLiteOfficer } from './-components/edit-lite-officer';
import { invalidateEnforcementLite } from './-components/invalidate-enforcement-lite';
import { LiteNotFound } from './-components/lite-not-found';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/edit-user/$userId')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  // The officer, their History and the lite locations to choose from, in parallel.
  loader: async ({ context, params, abortController }) => {
    const { userId } = paramsOrNotFound(liteOfficerParamsSchema, params);
    const [page, choices] = await Promise.all([
      loadRecordPage(context.api, userId, abortController, { record: getLiteOfficer, history: getLiteOfficerHistory }),
      listLiteLocationChoices(context.api, pageLoadOptions(abortController)),
    ]);
    return { ...page, choices };
  },
  notFoundComponent: () => <LiteNotFound what="lite officer" />,
  errorComponent: ({ error }) => (
    <LoadFailure title="Enforcement Lite: Edit User" error={error} back={{ to: '/enforcement-lite', label: 'Back to Enforcement Lite' }} />
  ),
  component: EditLiteOfficerPage,
});

function EditLiteOfficerPage() {
  const { record: officer, history, choices } = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const router = useRouter();
  return (
    <EditLiteOfficer
      officer={officer}
      history={history}
      choices={choices}
      save={(update) => updateLiteOfficer(api, officer.user_id, update)}
      reload={() => invalidateEnforcementLite(router)}
    />
  );
}
