import type { LocationFormValues, LocationInput } from '../../../contract/locations';
import { SectionPage } from '../../../ui/section-page';
import { browserTimeZone, LocationForm } from './location-form';

/** A new location is active, with enforcement on and a 10-minute grace period, until the person adding it says so. */
const NEW_LOCATION: Omit<LocationFormValues, 'time_zone'> = {
  name: '',
  address: '',
  capacity: Number.NaN,
  status: 'active',
  enforcement_enabled: true,
  grace_period_minutes: 10,
};

/** The add form; once saved, `onAdded` leads on (the success page). */
export function AddLocation({ onSave }: { onSave: (input: LocationInput) => Promise<() => void> }) {
  return (
    <SectionPage title="Add Location">
      <LocationForm
        defaultValues={{ ...NEW_LOCATION, time_zone: browserTimeZone() }}
        showStatus
        submitLabel="Add location"
        sendingLabel="Adding…"
        onSave={onSave}
      />
    </SectionPage>
  );
}
