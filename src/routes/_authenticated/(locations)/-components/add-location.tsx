import type { LocationFormValues, LocationInput } from '../../../../contract/locations';
import { SectionPage } from '../../../../ui/section-page';
import { LocationForm } from './location-form';

/**
 * A new location is active, with enforcement on and a 10-minute grace period, until the person adding it says so. Its
 * time zone is empty: the person chooses it (the form suggests one from the address). One object for every render:
 * the form compares its default values between renders.
 */
const NEW_LOCATION: LocationFormValues = {
  name: '',
  address: '',
  time_zone: '',
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
        defaultValues={NEW_LOCATION}
        showStatus
        submitLabel="Add location"
        sendingLabel="Adding…"
        onSave={onSave}
      />
    </SectionPage>
  );
}
