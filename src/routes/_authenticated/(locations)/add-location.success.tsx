import { createFileRoute, Link } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { getLocation } from '../../../api/locations';
import { forgivingSearch } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { SectionPage } from '../../../ui/section-page';

/** Reached after adding a location; `locationId` names it (the page still says "added" without one). */
export const Route = createFileRoute('/_authenticated/(locations)/add-location/success')({
  validateSearch: forgivingSearch(z.object({ locationId: z.optional(z.int().check(z.positive())) })),
  loaderDeps: ({ search }) => ({ locationId: search.locationId }),
  beforeLoad: ({ context }) => requireAccess(context, 'addLocation'),
  // Only the name, for the sentence: without it the page still works, so a failure is not an error here.
  loader: async ({ context, deps, abortController }) =>
    deps.locationId === undefined
      ? null
      : getLocation(context.api, deps.locationId, { signal: abortController.signal, quietStatuses: [403, 404] }).catch(
          () => null,
        ),
  component: LocationAddedPage,
});

function LocationAddedPage() {
  const location = Route.useLoaderData();
  const { locationId } = Route.useSearch();
  return (
    <SectionPage title="Location Added">
      <p role="status">{location ? `${location.name} was added.` : 'The location was added.'}</p>
      <ul className="link-list">
        {locationId !== undefined && (
          <li>
            <Link to="/edit-location/$locationId" params={{ locationId: String(locationId) }}>
              {location ? `Edit ${location.name}` : 'Edit the new location'}
            </Link>
          </li>
        )}
        <li>
          <Link to="/add-location">Add another location</Link>
        </li>
        <li>
          <Link to="/locations">Back to locations</Link>
        </li>
      </ul>
    </SectionPage>
  );
}
