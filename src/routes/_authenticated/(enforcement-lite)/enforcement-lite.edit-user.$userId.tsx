import { createFileRoute, notFound, useRouter } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { getLiteOfficer, getLiteOfficerHistory, listLiteLocationChoices, updateLiteOfficer } from '../../../api/enforcement-lite';
import { requireAccess } from '../../-shared/require-access';
import { liteOfficerParamsSchema } from '../../../contract/enforcement-lite';
import { EditLiteOfficer } from './-components/edit-lite-officer';
import { invalidateEnforcementLite } from './-components/invalidate-enforcement-lite';
import { LiteNotFound } from './-components/lite-not-found';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { recordOrNotFound } from '../../-shared/record-or-not-found';

export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/edit-user/$userId')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  // The officer, their History and the lite locations to choose from, in parallel.
  loader: async ({ context, params, abortController }) => {
    const parsed = z.safeParse(liteOfficerParamsSchema, params);
    if (!parsed.success) throw notFound();
    const options = pageLoadOptions(abortController);
    return recordOrNotFound(async () => {
      const [officer, history, choices] = await Promise.all([
        getLiteOfficer(context.api, parsed.data.userId, options),
        getLiteOfficerHistory(context.api, parsed.data.userId, options),
        listLiteLocationChoices(context.api, pageLoadOptions(abortController)),
      ]);
      return { officer, history, choices };
    });
  },
  notFoundComponent: () => <LiteNotFound what="lite officer" />,
  errorComponent: ({ error }) => (
    <LoadFailure title="Enforcement Lite: Edit User" error={error} back={{ to: '/enforcement-lite', label: 'Back to Enforcement Lite' }} />
  ),
  component: EditLiteOfficerPage,
});

function EditLiteOfficerPage() {
  const { officer, history, choices } = Route.useLoaderData();
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
