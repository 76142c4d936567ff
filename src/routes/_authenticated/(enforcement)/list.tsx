import { createFileRoute } from '@tanstack/react-router';
import { useEnforcementEngine } from '../../-shared/enforcement-context';
import { requireAccess } from '../../-shared/require-access';
import { Spinner } from '../../../ui/spinner';
import { SectionPage } from '../../../ui/section-page';
import { SectionTabs } from '../../../ui/section-tabs';
import { ENFORCEMENT_TABS } from './-components/citation-labels';
import { EnforcementScreen } from './-components/enforcement-screen';

export const Route = createFileRoute('/_authenticated/(enforcement)/list')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcement'),
  component: EnforcementPage,
});

function EnforcementPage() {
  const { permissions } = Route.useRouteContext();
  const engine = useEnforcementEngine();
  const locations = permissions.featureLevelLocations.enforcementLocations;
  return (
    <SectionPage title="Enforcement">
      <SectionTabs {...ENFORCEMENT_TABS} />
      {locations.length === 0 ? (
        <p>No enforcement locations are assigned to you. Ask an administrator to assign some.</p>
      ) : engine ? (
        <EnforcementScreen engine={engine} locations={locations} />
      ) : (
        <Spinner label="Starting the enforcement store…" />
      )}
    </SectionPage>
  );
}
