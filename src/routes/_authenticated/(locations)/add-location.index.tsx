import { createFileRoute, useRouter } from '@tanstack/react-router';
import { createLocation } from '../../../api/locations';
import { requireAccess } from '../../-shared/require-access';
import { toast } from '../../../ui/toast/toast-store';
import { AddLocation } from './-components/add-location';
import { invalidateLocations } from './-components/invalidate-locations';

export const Route = createFileRoute('/_authenticated/(locations)/add-location/')({
  beforeLoad: ({ context }) => requireAccess(context, 'addLocation'),
  component: AddLocationPage,
});

function AddLocationPage() {
  const { api } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  return (
    <AddLocation
      onSave={async (input) => {
        const created = await createLocation(api, input);
        toast({ title: 'Location added', description: created.name });
        void invalidateLocations(router);
        // Once the form no longer counts as changed, so leaving does not ask.
        return () => void navigate({ to: '/add-location/success', search: { locationId: created.location_id } });
      }}
    />
  );
}
