import { createFileRoute, Link } from '@tanstack/react-router';
import { useEnforcementEngine } from '../../-shared/enforcement-context';
import { requireAccess } from '../../-shared/require-access';
import { hasPermission } from '../../../permissions/rules';
import { Spinner } from '../../../ui/spinner';
import { SectionPage } from '../../../ui/section-page';
import { EnforcementScreen } from './-components/enforcement-screen';

export const Route = createFileRoute('/_authenticated/(enforcement)/list')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcement'),
  component: EnforcementPage,
});

function EnforcementPage() {
  const { permissions, api } = Route.useRouteContext();
  const engine = useEnforcementEngine();
  const locations = permissions.featureLevelLocations.enforcementLocations;
  // Citations are written where the officer holds enforcement add (decision 0097).
  const writable = locations.filter((location) => hasPermission(permissions.permissions, 'e', 'add', [location.location_id]));
  const citations = writable.length > 0 ? { api, officer: permissions.email, locations: writable } : undefined;
  return (
    <SectionPage title="Enforcement">
      {/* One link, not the section's tabs: the plate search's first load on an officer's phone stays as small as it can. */}
      <Link to="/citations/{-$citationId}" className="section-link">
        Citations
      </Link>
      {locations.length === 0 ? (
        <p>No enforcement locations are assigned to you. Ask an administrator to assign some.</p>
      ) : engine ? (
        <EnforcementScreen engine={engine} locations={locations} citations={citations} />
      ) : (
        <Spinner label="Starting the enforcement store…" />
      )}
    </SectionPage>
  );
}
