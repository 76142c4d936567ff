import { createFileRoute, useRouter } from '@tanstack/react-router';
import { createLiteLocation } from '../../../api/enforcement-lite';
import { requireAccess } from '../../-shared/require-access';
import { SectionPage } from '../../../ui/section-page';
import { toast } from '../../../ui/toast/toast-store';
import { invalidateEnforcementLite } from './-components/invalidate-enforcement-lite';
import { LiteLocationForm } from './-components/lite-location-form';

/**
 * A new lite location is active with a 10-minute grace period until the person adding it says otherwise; its time
 * zone is empty until chosen (suggested from the address). One object for every render: the form compares them.
 */
const NEW_LITE_LOCATION = {
  name: '',
  address: '',
  time_zone: '',
  capacity: Number.NaN,
  grace_period_minutes: 10,
  operator_name: '',
  status: 'active' as const,
};

export const Route = createFileRoute('/_authenticated/(enforcement-lite)/enforcement-lite/add-location')({
  beforeLoad: ({ context }) => requireAccess(context, 'enforcementLite'),
  component: AddLiteLocationPage,
});

function AddLiteLocationPage() {
  const { api } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  return (
    <SectionPage title="Enforcement Lite: Add Location">
      <LiteLocationForm
        defaultValues={NEW_LITE_LOCATION}
        submitLabel="Add lite location"
        sendingLabel="Adding…"
        onSave={async (input) => {
          const created = await createLiteLocation(api, input);
          toast({ title: 'Lite location added', description: created.name });
          void invalidateEnforcementLite(router);
          // Once the form no longer counts as changed, so leaving does not ask.
          return () =>
            void navigate({
              to: '/enforcement-lite/edit-location/$locationId',
              params: { locationId: String(created.location_id) },
            });
        }}
      />
    </SectionPage>
  );
}
