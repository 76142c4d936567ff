import { createFileRoute, Link } from '@tanstack/react-router';
import { listLocations } from '../../api/locations';
import { requireAccess } from '../../app/require-access';
import { SectionPage } from '../../ui/section-page';

export const Route = createFileRoute('/_authenticated/locations')({
  beforeLoad: ({ context }) => requireAccess(context, 'locations'),
  loader: ({ context }) => listLocations(context.api),
  component: LocationsPage,
});

function LocationsPage() {
  const locations = Route.useLoaderData();
  const { permissions } = Route.useRouteContext();
  return (
    <SectionPage title="Locations">
      {permissions.featureLevelLocations.canAddLocation && (
        <p>
          <Link to="/add-location">Add location</Link>
        </p>
      )}
      {locations.length === 0 ? (
        <p>No locations are assigned to you yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Locations you can view</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Time zone</th>
                <th scope="col">Spaces</th>
                <th scope="col">Status</th>
                <th scope="col">Enforcement</th>
              </tr>
            </thead>
            <tbody>
              {locations.map((location) => (
                <tr key={location.location_id}>
                  <td>
                    {permissions.hasLocationsPermissions ? (
                      <Link to="/edit-location/$locationId" params={{ locationId: String(location.location_id) }}>
                        {location.name}
                      </Link>
                    ) : (
                      location.name
                    )}
                  </td>
                  <td>{location.address}</td>
                  <td>{location.time_zone}</td>
                  <td>{location.capacity}</td>
                  <td>{location.status === 'active' ? 'Active' : 'Inactive'}</td>
                  <td>{location.enforcement_enabled ? 'On' : 'Off'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SectionPage>
  );
}
