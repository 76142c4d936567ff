import { FormField } from '../../../../ui/form-field';

export interface RateLocationRef {
  location_id: number;
  name: string;
  time_zone: string;
}

/** The location whose rates a screen shows; choosing one changes the URL (`?locationId=`). */
export function RateLocationChoice(props: { locations: RateLocationRef[]; value: number | undefined; onLocation: (locationId: number) => void }) {
  return (
    <FormField label="Location">
      {(control) => (
        <select {...control} className="select" value={props.value ?? ''} onChange={(event) => props.onLocation(Number(event.target.value))}>
          {props.locations.map((location) => (
            <option key={location.location_id} value={location.location_id}>
              {location.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
