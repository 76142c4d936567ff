import { useId } from 'react';
import * as z from 'zod/mini';
import {
  LITE_OFFICER_STATUSES,
  liteOfficerInviteSchema,
  liteOfficerUpdateSchema,
  type LiteLocationChoice,
  type LiteOfficerStatus,
} from '../../../../contract/enforcement-lite';
import { SelectField } from '../../../../ui/bound-fields';
import { shownError } from '../../../../ui/form-errors';
import { SectionFormFrame, useSectionForm, type SectionFormProps } from '../../../../ui/use-section-form';
import { PersonFields } from '../../../-shared/person-fields';
import { LITE_OFFICER_LABELS as LABELS, liteLocationStatusLabel, officerStatusLabel } from './lite-labels';

/** The officer form's values: e-mail only when adding, status only when editing. */
export interface OfficerFormValues {
  email: string;
  display_name: string;
  location_ids: number[];
  status: LiteOfficerStatus;
}
export type OfficerFormOutput = { email: string; display_name: string; location_ids: number[]; status: LiteOfficerStatus };

/** Both modes check every value the form holds; what a mode does not show keeps its default and passes. */
const addSchema = z.object({
  email: liteOfficerInviteSchema.shape.email,
  display_name: liteOfficerInviteSchema.shape.display_name,
  location_ids: liteOfficerInviteSchema.shape.location_ids,
  status: z.enum(LITE_OFFICER_STATUSES),
});
const editSchema = z.object({
  email: z.string(),
  display_name: liteOfficerUpdateSchema.shape.display_name,
  location_ids: liteOfficerUpdateSchema.shape.location_ids,
  status: liteOfficerUpdateSchema.shape.status,
});
const FIELDS = ['email', 'display_name', 'location_ids', 'status'];

export interface LiteOfficerFormProps extends SectionFormProps<OfficerFormOutput> {
  mode: 'add' | 'edit';
  defaultValues: OfficerFormValues;
  choices: readonly LiteLocationChoice[];
}

/**
 * The lite officer form of add and edit: e-mail (add), name, the lite locations they enforce (checkboxes), status
 * (edit). Validated with the contract's schemas, a 400 placed at its fields, nothing typed lost on failure.
 */
export function LiteOfficerForm(props: LiteOfficerFormProps) {
  const locationsId = useId();
  // One type for both: the same fields, only the e-mail's check differs.
  const schema = props.mode === 'add' ? addSchema : (editSchema as unknown as typeof addSchema);
  const { form, submitted, frame } = useSectionForm(props, schema, FIELDS);

  return (
    <SectionFormFrame frame={frame} className="location-form">
      <PersonFields
        form={form}
        labels={LABELS}
        emailHint={props.mode === 'add' ? 'The officer signs in with this address.' : undefined}
        submitted={submitted}
      />
      <form.Field name="location_ids">
        {(field) => {
          const error = shownError(field.state.meta, submitted);
          const chosen = new Set(field.state.value);
          return (
            <fieldset
              className="form-field checkbox-group"
              aria-describedby={error ? `${locationsId}-error` : `${locationsId}-hint`}
              aria-invalid={error ? true : undefined}
            >
              <legend className="form-label">{LABELS.location_ids}</legend>
              <p id={`${locationsId}-hint`} className="form-hint">
                The officer checks plates at these locations, and nothing else.
              </p>
              {props.choices.length === 0 ? (
                <p>There is no lite location yet: add one first.</p>
              ) : (
                props.choices.map((choice) => (
                  <div className="checkbox-label" key={choice.location_id}>
                    <input
                      id={`${locationsId}-${choice.location_id}`}
                      type="checkbox"
                      name="location_ids"
                      value={choice.location_id}
                      checked={chosen.has(choice.location_id)}
                      aria-invalid={error ? true : undefined}
                      onChange={(event) =>
                        field.handleChange(
                          event.target.checked
                            ? [...field.state.value, choice.location_id]
                            : field.state.value.filter((id) => id !== choice.location_id),
                        )
                      }
                      onBlur={field.handleBlur}
                    />
                    <label htmlFor={`${locationsId}-${choice.location_id}`}>
                      {choice.name}
                      {choice.status === 'inactive' ? ` (${liteLocationStatusLabel(choice.status)})` : ''}
                    </label>
                  </div>
                ))
              )}
              {error && (
                <p id={`${locationsId}-error`} className="field-error">
                  {error}
                </p>
              )}
            </fieldset>
          );
        }}
      </form.Field>
      {props.mode === 'edit' && (
        <form.Field name="status">
          {(field) => (
            <SelectField
              field={field}
              label={LABELS.status}
              hint="A disabled officer's next call is refused."
              submitted={submitted}
              options={LITE_OFFICER_STATUSES}
              labelOf={officerStatusLabel}
            />
          )}
        </form.Field>
      )}
    </SectionFormFrame>
  );
}
