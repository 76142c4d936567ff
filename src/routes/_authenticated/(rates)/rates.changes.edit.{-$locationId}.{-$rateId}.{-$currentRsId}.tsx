import { createFileRoute, useRouter } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { requireAccess } from '../../-shared/require-access';
import { canonicalIdParam } from '../../../contract/ids';
import { hasPermission } from '../../../permissions/rules';
import { RateChangeEditor } from './-components/rate-change-editor';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { SectionPage } from '../../../ui/section-page';

const idOf = (value: string | undefined) => {
  const parsed = z.safeParse(canonicalIdParam(), value);
  return parsed.success ? parsed.data : undefined;
};

/**
 * Spec §2 /rates/changes/edit/{locationId?}/{rateId?}/{currentRsId?} (rate settings edit): the rate-set editor for a
 * location (the first one the user may edit when none is named), starting from the change `rateId` names (a copy,
 * from any location the user may view) or else from the set in force. `currentRsId` is accepted for the spec's links
 * and not needed: the schedule's version guards the save. The API module is imported by the loader when it runs.
 */
export const Route = createFileRoute('/_authenticated/(rates)/rates/changes/edit/{-$locationId}/{-$rateId}/{-$currentRsId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'rateChangeEdit'),
  loader: async ({ context, params, abortController }) => {
    const options = pageLoadOptions(abortController);
    const { listRateLocations, getRateLocation, getRateChange } = await import('../../../api/rates');
    const viewable = await listRateLocations(context.api, options);
    const editable = viewable.filter((location) => hasPermission(context.permissions.permissions, 'rs', 'edit', [location.location_id]));
    const wanted = idOf(params.locationId);
    const chosen = wanted === undefined ? editable[0] : editable.find((location) => location.location_id === wanted);
    if (!chosen) return { viewable, editable, rates: null, start: null };
    const rateId = idOf(params.rateId);
    const [rates, copied] = await Promise.all([
      getRateLocation(context.api, chosen.location_id, options),
      rateId === undefined ? null : getRateChange(context.api, rateId, options),
    ]);
    return { viewable, editable, rates, start: copied?.rate_set ?? rates.current?.rate_set ?? null };
  },
  errorComponent: ({ error }) => (
    <LoadFailure title="Edit Rate Change" error={error} back={{ to: '/rates', label: 'Back to Rate Changes' }} />
  ),
  component: RateChangeEditPage,
});

function RateChangeEditPage() {
  const { viewable, editable, rates, start } = Route.useLoaderData();
  const { api } = Route.useRouteContext();
  const params = Route.useParams();
  const navigate = Route.useNavigate();
  const router = useRouter();
  if (!rates) {
    return (
      <SectionPage title="Edit Rate Change">
        <p>{editable.length === 0 ? 'None of your locations has rates you may edit.' : 'You may not edit the rates of that location.'}</p>
      </SectionPage>
    );
  }
  return (
    <RateChangeEditor
      key={`${rates.location_id}-${params.rateId ?? ''}`}
      locations={editable}
      copyFrom={viewable}
      rates={rates}
      start={start}
      now={Date.now()}
      onLocation={(locationId) => void navigate({ params: { locationId: String(locationId), rateId: undefined, currentRsId: undefined } })}
      loadRateSetOf={async (locationId) => {
        const { getRateLocation } = await import('../../../api/rates');
        return (await getRateLocation(api, locationId)).current?.rate_set ?? null;
      }}
      schedule={async (input) => (await import('../../../api/rates')).scheduleRateChange(api, rates.location_id, input)}
      onScheduled={(change) => void navigate({ to: '/rates', search: { locationId: change.location_id, status: 'scheduled' } })}
      reload={() => router.invalidate()}
    />
  );
}
