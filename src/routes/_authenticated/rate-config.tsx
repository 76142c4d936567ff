import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useId } from 'react';
import * as z from 'zod/mini';
import { forgivingSearch } from '../../app/list-route';
import { requireAccess } from '../../app/require-access';
import { canonicalIdParam } from '../../contract/ids';
import { hasPermission } from '../../permissions/rules';
import { RateConfigDetails } from '../-components/rates/rate-config-details';
import { RateConfigForm } from '../-components/rates/rate-config-form';
import { RateLocationChoice } from '../-components/rates/rate-location-choice';
import { pageLoadOptions } from '../../api/page-load';
import { LoadFailure } from '../../ui/load-failure';
import { SectionTabs } from '../../ui/section-tabs';
import { RATES_TABS } from '../-components/section-tabs';

// The router hands a number back for "?locationId=2", the address bar a string: both are read as the canonical id.
const rateConfigSearchSchema = z.object({ locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())) });

/**
 * Spec §2 /rate-config (rate settings view; saving needs rate settings edit at the location). The API module is
 * imported by the loader when it runs, keeping the rates contract out of the entry chunk.
 */
export const Route = createFileRoute('/_authenticated/rate-config')({
  validateSearch: forgivingSearch(rateConfigSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateConfig'),
  loader: async ({ context, deps, abortController }) => {
    const { listRateLocations, getRateLocation } = await import('../../api/rates');
    const options = pageLoadOptions(abortController);
    const locations = await listRateLocations(context.api, options);
    const chosen = locations.find((location) => location.location_id === deps.locationId) ?? locations[0];
    const rates = chosen ? await getRateLocation(context.api, chosen.location_id, options) : null;
    return { locations, rates };
  },
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
            const { saveRateConfig } = await import('../../api/rates');
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
