import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { ViolationInput, ViolationUpdate } from '../../../contract/violations';
import { loadPermissions } from '../../../api/auth';
import { deleteLocation, getLocation, getLocationHistory, setLocationStatus, updateLocation } from '../../../api/locations';
import { requireAccess } from '../../-shared/require-access';
import { locationParamsSchema } from '../../../contract/location-search';
import { hasPermission } from '../../../permissions/rules';
import { EditLocation } from './-components/edit-location';
import { invalidateLocations } from './-components/invalidate-locations';
import { LocationNotFound } from './-components/location-not-found';
import { LoadFailure } from '../../../ui/load-failure';
import { loadRecordPage, paramsOrNotFound } from '../../-shared/record-or-not-found';

export const Route = createFileRoute('/_authenticated/(locations)/edit-location/$locationId')({
  beforeLoad: ({ context }) => requireAccess(context, 'editLocation'),
  // The location and its history in parallel: no waterfall.
  loader: async ({ context, params, abortController }) => {
    const { locationId } = paramsOrNotFound(locationParamsSchema, params);
    // The session's permissions predate any location its user added since (the server grants the creator access
    // to it): for such a user, the current ones are asked for alongside, so a new location opens editable.
    const session = context.permissions;
    const mayBeStale =
      session.featureLevelLocations.canAddLocation && !hasPermission(session.permissions, 'lo', 'edit', [locationId]);
    const [page, current] = await Promise.all([
      loadRecordPage(context.api, locationId, abortController, { record: getLocation, history: getLocationHistory }),
      mayBeStale ? loadPermissions(context.api).catch(() => null) : null,
    ]);
    const permissions = (current ?? session).permissions;
    return {
      ...page,
      canEdit: hasPermission(permissions, 'lo', 'edit', [locationId]),
      canDelete: hasPermission(permissions, 'lo', 'delete', [locationId]),
    };
  },
  notFoundComponent: LocationNotFound,
  errorComponent: ({ error }) => (
    <LoadFailure title="Edit Location" error={error} back={{ to: '/locations', label: 'Back to Locations' }} />
  ),
  component: EditLocationPage,
});

function EditLocationPage() {
  const page = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  const locationId = page.record.location_id;
  // Loaded by the violations' own part of the page, not by the loader: the route's loader is in the first load of
  // every page, /list included, and the violations' schemas would join it. One set per location: the list loads once.
  const violations = useMemo(() => {
    const module = () => import('../../../api/location-violations');
    return {
      load: async () => (await module()).getLocationViolations(api, locationId),
      add: async (input: ViolationInput) => (await module()).addLocationViolation(api, locationId, input),
      update: async (code: string, change: ViolationUpdate) => (await module()).updateLocationViolation(api, locationId, code, change),
    };
  }, [api, locationId]);
  return (
    <EditLocation
      {...page}
      actions={{
        save: (update) => updateLocation(api, locationId, update),
        setStatus: (status, version) => setLocationStatus(api, locationId, { status, version }),
        remove: (version) => deleteLocation(api, locationId, version),
        reload: () => invalidateLocations(router),
        violations,
        leave: () => {
          void invalidateLocations(router);
          void navigate({ to: '/locations' });
        },
      }}
    />
  );
}
