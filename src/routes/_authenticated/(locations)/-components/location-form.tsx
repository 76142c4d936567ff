import {
  LOCATION_STATUSES,
  locationInputSchema,
  type LocationFormValues,
  type LocationInput,
} from '../../../../contract/locations';
import { CheckboxFieldFor, SelectField } from '../../../../ui/bound-fields';
import { SectionFormFrame, useSectionForm, type SectionFormProps } from '../../../../ui/use-section-form';
import { LocationPlaceFields } from '../../../-shared/location-fields';
import { LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

const FIELDS = Object.keys(LABELS);

export interface LocationFormProps extends SectionFormProps<LocationInput> {
  defaultValues: LocationFormValues;
  /** The add form sets the status; the edit form leaves it to Deactivate/Activate. */
  showStatus: boolean;
}

/**
 * The location form of both add and edit (docs/sections.md "Forms"): TanStack Form validating with the contract's
 * locationInputSchema, so the messages are the schema's, placed at each field; a 400's fieldErrors are placed the
 * same way. The submit button waits while sending; what was typed stays on any failure; leaving with unsaved
 * changes asks first.
 */
export function LocationForm(props: LocationFormProps) {
  const { form, submitted, frame } = useSectionForm(props, locationInputSchema, FIELDS);

  return (
    <SectionFormFrame frame={frame} className="location-form">
      <LocationPlaceFields form={form} labels={LABELS} submitted={submitted} />
      <form.Field name="enforcement_enabled">
        {(field) => (
          <CheckboxFieldFor field={field} label="Enforcement on" hint="Officers check plates at this location." submitted={submitted} />
        )}
      </form.Field>
      {props.showStatus && (
        <form.Field name="status">
          {(field) => (
            <SelectField field={field} label={LABELS.status} submitted={submitted} options={LOCATION_STATUSES} labelOf={statusLabel} />
          )}
        </form.Field>
      )}
    </SectionFormFrame>
  );
}
