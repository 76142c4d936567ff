import { useStore } from '@tanstack/react-form';
import type { ReactNode } from 'react';
import { MAX_CAPACITY, MAX_GRACE_PERIOD_MINUTES } from '../../contract/locations';
import { NumberField, TextField, TimeZoneField, type FormWithFields } from '../../ui/bound-fields';

/** The fields a location and a lite location share, by their names in both contracts. */
type PlaceFieldName = 'name' | 'address' | 'time_zone' | 'capacity' | 'grace_period_minutes';

/** What the block reads of a TanStack form whose values hold those fields. */
interface PlaceForm extends FormWithFields<PlaceFieldName> {
  /** The form's state, read for the address as typed (the time zone field suggests the zone from it). */
  store: {
    get: () => { values: { address: string } };
    subscribe: (listener: (state: { values: { address: string } }) => void) => { unsubscribe: () => void };
  };
}

/**
 * A location and a lite location alike: its name, then the section's own fields (`children`, a lite location's
 * operator), then where it is and how it parks: the address, the time zone it suggests, the spaces and the grace
 * period, with the same limits said the same way.
 */
export function LocationPlaceFields({
  form,
  labels,
  submitted,
  children,
}: {
  form: PlaceForm;
  /** The section's names of its fields ("Spaces", "Grace period"), as its list and History say them. */
  labels: Readonly<Record<string, string>>;
  submitted: boolean;
  children?: ReactNode;
}) {
  const address = useStore(form.store, (state) => state.values.address);
  const label = (name: PlaceFieldName) => labels[name] ?? name;
  const capacityHint = `0 to ${MAX_CAPACITY.toLocaleString('en-US')}`;
  const graceHint = `How long after expiry a car is still treated as paid; 0 to ${MAX_GRACE_PERIOD_MINUTES}.`;
  return (
    <>
      <form.Field name="name">
        {(field) => <TextField field={field} label={label('name')} submitted={submitted} autoComplete="off" />}
      </form.Field>
      {children}
      <form.Field name="address">
        {(field) => <TextField field={field} label={label('address')} submitted={submitted} autoComplete="street-address" />}
      </form.Field>
      <form.Field name="time_zone">
        {(field) => <TimeZoneField field={field} label={label('time_zone')} submitted={submitted} address={address} />}
      </form.Field>
      <div className="form-row">
        <form.Field name="capacity">
          {(field) => <NumberField field={field} label={label('capacity')} hint={capacityHint} submitted={submitted} max={MAX_CAPACITY} />}
        </form.Field>
        <form.Field name="grace_period_minutes">
          {(field) => (
            <NumberField
              field={field}
              label={`${label('grace_period_minutes')} (minutes)`}
              hint={graceHint}
              submitted={submitted}
              max={MAX_GRACE_PERIOD_MINUTES}
            />
          )}
        </form.Field>
      </div>
    </>
  );
}
