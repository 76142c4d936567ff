import { createFileRoute, useRouter } from '@tanstack/react-router';
import { inviteLiteOfficer, listLiteLocationChoices } from '../../../api/enforcement-lite';
import { requireAccess } from '../../-shared/require-access';
import { AddLiteOfficer } from './-components/add-lite-officer';
import { invalidateEnforcementLite } from './-components/invalidate-enforcement-lite';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';

export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/add-user')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  loader: ({ context, abortController }) => listLiteLocationChoices(context.api, pageLoadOptions(abortController)),
  errorComponent: ({ error }) => (
    <LoadFailure title="Enforcement Lite: Add User" error={error} back={{ to: '/enforcement-lite', label: 'Back to Enforcement Lite' }} />
  ),
  component: AddLiteOfficerPage,
});

function AddLiteOfficerPage() {
  const choices = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const router = useRouter();
  return (
    <AddLiteOfficer
      choices={choices}
      add={async (input) => {
        const added = await inviteLiteOfficer(api, input);
        void invalidateEnforcementLite(router);
        return added;
      }}
    />
  );
}
