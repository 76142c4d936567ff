import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { forgivingSearch } from '../../app/list-route';
import { requireAccess } from '../../app/require-access';
import { canonicalIdParam } from '../../contract/ids';
import { RateSelection } from '../-components/rates/rate-selection';
import { pageLoadOptions } from '../../api/page-load';
import { LoadFailure } from '../../ui/load-failure';

// The router hands a number back for "?locationId=2", the address bar a string: both are read as the canonical id.
const rateSelectionSearchSchema = z.object({ locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())) });

/**
 * Spec §2 /rate-selection (rate settings view). The API module is imported by the loader when it runs, so the rates
 * contract stays out of the entry chunk (docs/decisions.md "Off the first page's critical path").
 */
export const Route = createFileRoute('/_authenticated/rate-selection')({
  validateSearch: forgivingSearch(rateSelectionSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateSelection'),
  loader: async ({ context, deps, abortController }) => {
    const { listRateLocations, getRateLocation } = await import('../../api/rates');
    const options = pageLoadOptions(abortController);
    const locations = await listRateLocations(context.api, options);
    const chosen = locations.find((location) => location.location_id === deps.locationId) ?? locations[0];
    const rates = chosen ? await getRateLocation(context.api, chosen.location_id, options) : null;
    return { locations, rates };
  },
  errorComponent: ({ error }) => <LoadFailure title="Configure Rates" error={error} />,
  component: RateSelectionPage,
});

function RateSelectionPage() {
  const { locations, rates } = Route.useLoaderData();
  const navigate = Route.useNavigate();
  return (
    <RateSelection
      locations={locations}
      rates={rates}
      now={Date.now()}
      onLocation={(locationId) => void navigate({ search: { locationId } })}
    />
  );
}
