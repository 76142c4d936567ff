import { createFileRoute } from '@tanstack/react-router';
import { forgivingSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { RateSelection } from './-components/rate-selection';
import { LoadFailure } from '../../../ui/load-failure';
import { loadRateLocation } from '../../-shared/load-rate-location';
import { locationIdSearchSchema } from '../../-shared/location-id-search';

/**
 * Spec §2 /rate-selection (rate settings view). The API module is imported by the loader when it runs, so the rates
 * contract stays out of the entry chunk (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
 */
export const Route = createFileRoute('/_authenticated/(rates)/rate-selection')({
  validateSearch: forgivingSearch(locationIdSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'rateSelection'),
  loader: ({ context, deps, abortController }) => loadRateLocation(context.api, deps.locationId, abortController),
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
