import { createFileRoute, notFound, useRouter } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { loadPermissions } from '../../../api/auth';
import { deleteLocation, getLocation, getLocationHistory, setLocationStatus, updateLocation } from '../../../api/locations';
import { requireAccess } from '../../-shared/require-access';
import { locationParamsSchema } from '../../../contract/location-search';
import { hasPermission } from '../../../permissions/rules';
import { EditLocation } from './-components/edit-location';
import { invalidateLocations } from './-components/invalidate-locations';
import { LocationNotFound } from './-components/location-not-found';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { recordOrNotFound } from '../../-shared/record-or-not-found';

export const Route = createFileRoute('/_authenticated/(locations)/edit-location/$locationId')({
  beforeLoad: ({ context }) => requireAccess(context, 'editLocation'),
  // The location and its history in parallel: no waterfall.
  loader: async ({ context, params, abortController }) => {
    // Only canonical ids ("7", never "07" or "7.0"); anything else is no location at all. Checked here, after the
    // guard, so that a user without access is told so whatever the address.
    const parsed = z.safeParse(locationParamsSchema, params);
    if (!parsed.success) throw notFound();
    const { locationId } = parsed.data;
    const options = pageLoadOptions(abortController);
    // The session's permissions predate any location its user added since (the server grants the creator access
    // to it): for such a user, the current ones are asked for alongside, so a new location opens editable.
    const session = context.permissions;
    const mayBeStale =
      session.featureLevelLocations.canAddLocation && !hasPermission(session.permissions, 'lo', 'edit', [locationId]);
    return recordOrNotFound(async () => {
      const [location, history, current] = await Promise.all([
        getLocation(context.api, locationId, options),
        getLocationHistory(context.api, locationId, options),
        mayBeStale ? loadPermissions(context.api).catch(() => null) : null,
      ]);
      const record = (current ?? session).permissions;
      return {
        location,
        history,
        canEdit: hasPermission(record, 'lo', 'edit', [locationId]),
        canDelete: hasPermission(record, 'lo', 'delete', [locationId]),
      };
    });
  },
  notFoundComponent: LocationNotFound,
  errorComponent: ({ error }) => (
    <LoadFailure title="Edit Location" error={error} back={{ to: '/locations', label: 'Back to Locations' }} />
  ),
  component: EditLocationPage,
});

function EditLocationPage() {
  const { location, history, canEdit, canDelete } = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  const locationId = location.location_id;
  return (
    <EditLocation
      location={location}
      history={history}
      canEdit={canEdit}
      canDelete={canDelete}
      actions={{
        save: (update) => updateLocation(api, locationId, update),
        setStatus: (status, version) => setLocationStatus(api, locationId, { status, version }),
        remove: (version) => deleteLocation(api, locationId, version),
        reload: () => invalidateLocations(router),
        leave: () => {
          void invalidateLocations(router);
          void navigate({ to: '/locations' });
        },
      }}
    />
  );
}
