import {
  LITE_LOCATION_STATUSES,
  liteLocationInputSchema,
  type LiteLocationFormValues,
  type LiteLocationInput,
} from '../../../../contract/enforcement-lite';
import { SelectField, TextField } from '../../../../ui/bound-fields';
import { SectionFormFrame, useSectionForm, type SectionFormProps } from '../../../../ui/use-section-form';
import { LocationPlaceFields } from '../../../-shared/location-fields';
import { LITE_LOCATION_LABELS as LABELS, liteLocationStatusLabel } from './lite-labels';

const FIELDS = Object.keys(liteLocationInputSchema.shape);

export interface LiteLocationFormProps extends SectionFormProps<LiteLocationInput> {
  defaultValues: LiteLocationFormValues;
}

/**
 * The lite location form of add and edit, like the Locations form (docs/sections.md "Forms"): the contract's
 * schema validates and words the messages, a 400 is placed at its fields, nothing typed is lost on failure, and
 * leaving with unsaved changes asks first. Enforcement is always on for a lite location, so it is no field.
 */
export function LiteLocationForm(props: LiteLocationFormProps) {
  const { form, submitted, frame } = useSectionForm(props, liteLocationInputSchema, FIELDS);

  return (
    <SectionFormFrame frame={frame} className="location-form">
      <LocationPlaceFields form={form} labels={LABELS} submitted={submitted}>
        <form.Field name="operator_name">
          {(field) => (
            <TextField
              field={field}
              label={LABELS.operator_name}
              hint="The company that runs this location."
              submitted={submitted}
              autoComplete="organization"
            />
          )}
        </form.Field>
      </LocationPlaceFields>
      <form.Field name="status">
        {(field) => (
          <SelectField
            field={field}
            label={LABELS.status}
            hint="Officers enforce only at active lite locations."
            submitted={submitted}
            options={LITE_LOCATION_STATUSES}
            labelOf={liteLocationStatusLabel}
          />
        )}
      </form.Field>
    </SectionFormFrame>
  );
}
