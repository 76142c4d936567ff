import { createFileRoute, useRouter } from '@tanstack/react-router';
import { getLiteLocation, getLiteLocationHistory, updateLiteLocation } from '../../../api/enforcement-lite';
import { requireAccess } from '../../-shared/require-access';
import { liteLocationParamsSchema } from '../../../contract/enforcement-lite';
import { EditLiteLocation } from './-components/edit-lite-location';
import { invalidateEnforcementLite } from './-components/invalidate-enforcement-lite';
import { LiteNotFound } from './-components/lite-not-found';
import { LoadFailure } from '../../../ui/load-failure';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/edit-location/$locationId')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  // The location and its History in parallel; ids checked after the guard, so a non-superuser is told so whatever the address.
  loader: async ({ context, params, abortController }) => {
    const { locationId } = paramsOrNotFound(liteLocationParamsSchema, params);
    return loadRecordPage(context.api, locationId, abortController, { record: getLiteLocation, history: getLiteLocationHistory });
  },
  notFoundComponent: () => <LiteNotFound what="lite location" />,
  errorComponent: ({ error }) => (
    <LoadFailure title="Enforcement Lite: Edit Location" error={error} back={{ to: '/enforcement-lite', label: 'Back to Enforcement Lite' }} />
  ),
  component: EditLiteLocationPage,
});

function EditLiteLocationPage() {
  const { record: location, history } = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const router = useRouter();
  return (
    <EditLiteLocation
      location={location}
      history={history}
      save={(update) => updateLiteLocation(api, location.location_id, update)}
      reload={() => invalidateEnforcementLite(router)}
    />
  );
}
