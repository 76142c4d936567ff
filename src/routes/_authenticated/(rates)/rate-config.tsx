import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useId } from 'react';
import { forgivingSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { hasPermission } from '../../../permissions/rules';
import { RateConfigDetails } from './-components/rate-config-details';
import { RateConfigForm } from './-components/rate-config-form';
import { RateLocationChoice } from './-components/rate-location-choice';
import { LoadFailure } from '../../../ui/load-failure';
import { SectionTabs } from '../../../ui/section-tabs';
import { RATES_TABS } from '../../-shared/section-tabs';
import { loadRateLocation } from '../../-shared/load-rate-location';
import { locationIdSearchSchema } from '../../-shared/location-id-search';

/**
 * Spec §2 /rate-config (rate settings view; saving needs rate settings edit at the location). The API module is
 * imported by the loader when it runs, keeping the rates contract out of the entry chunk.
 */
export const Route = createFileRoute('/_authenticated/(rates)/rate-config')({
  validateSearch: forgivingSearch(locationIdSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateConfig'),
  loader: ({ context, deps, abortController }) => loadRateLocation(context.api, deps.locationId, abortController),
  errorComponent: ({ error }) => <LoadFailure title="Rate Configuration" error={error} />,
  component: RateConfigPage,
});

function RateConfigPage() {
  const { locations, rates } = Route.useLoaderData();
  const { api, permissions } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  const titleId = useId();
  const canEdit = rates !== null && hasPermission(permissions.permissions, 'rs', 'edit', [rates.location_id]);
  return (
    <section className="section-page" aria-labelledby={titleId}>
      <h1 id={titleId}>Rate Configuration</h1>
      <SectionTabs {...RATES_TABS} />
      {locations.length === 0 && <p>None of your locations has rates you may see.</p>}
      {locations.length > 0 && (
        <RateLocationChoice locations={locations} value={rates?.location_id} onLocation={(locationId) => void navigate({ search: { locationId } })} />
      )}
      {rates && canEdit && (
        <RateConfigForm
          key={rates.location_id}
          rates={rates}
          save={async (config, version) => {
            const { saveRateConfig } = await import('../../../api/rates');
            return saveRateConfig(api, rates.location_id, { ...config, version });
          }}
          reload={() => router.invalidate()}
        />
      )}
      {rates && !canEdit && (
        <section className="panel" aria-label="Configuration">
          <RateConfigDetails config={rates.config} timeZone={rates.time_zone} />
          <p className="muted">You may view this configuration; changing it needs rate settings edit permission here.</p>
        </section>
      )}
    </section>
  );
}
