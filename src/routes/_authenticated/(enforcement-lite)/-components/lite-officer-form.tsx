import { useForm, useStore } from '@tanstack/react-form';
import { useId, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import {
  LITE_OFFICER_STATUSES,
  liteOfficerInviteSchema,
  liteOfficerUpdateSchema,
  type LiteLocationChoice,
  type LiteOfficerStatus,
} from '../../../../contract/enforcement-lite';
import { SelectField, TextField } from '../../../../ui/bound-fields';
import { FormFooter } from '../../../../ui/form-footer';
import { validateOnEveryEvent } from '../../../../ui/form-validation';
import { SectionForm, useFocusFirstInvalid, useReportChanged } from '../../../../ui/section-form';
import { clearServerError, placeServerErrors, shownError } from '../../../../ui/form-errors';
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

export interface LiteOfficerFormProps {
  mode: 'add' | 'edit';
  defaultValues: OfficerFormValues;
  choices: readonly LiteLocationChoice[];
  submitLabel: string;
  sendingLabel: string;
  onSave: (values: OfficerFormOutput) => Promise<(() => void) | void>;
  onSaveFailed?: (error: unknown) => boolean;
  onChangedChange?: (changed: boolean) => void;
  notice?: ReactNode;
  allowDiscard?: boolean;
}

/**
 * The lite officer form of add and edit: e-mail (add), name, the lite locations they enforce (checkboxes), status
 * (edit). Validated with the contract's schemas, a 400 placed at its fields, nothing typed lost on failure.
 */
export function LiteOfficerForm(props: LiteOfficerFormProps) {
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const locationsId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  // One type for both: the same fields, only the e-mail's check differs.
  const schema = props.mode === 'add' ? addSchema : (editSchema as unknown as typeof addSchema);

  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onDynamic: schema },
    validationLogic: validateOnEveryEvent,
    onSubmitInvalid: focusFirstInvalid,
    listeners: clearServerError,
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      const parsed = z.parse(schema, value);
      let then: (() => void) | void;
      try {
        then = await props.onSave(parsed);
      } catch (error) {
        if (props.onSaveFailed?.(error)) return;
        setFailure(placeServerErrors(formApi, error, FIELDS));
        focusFirstInvalid();
        return;
      }
      formApi.reset(value);
      then?.();
    },
  });

  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const changed = useStore(form.store, (state) => !state.isDefaultValue);
  useReportChanged(changed, props.onChangedChange);

  return (
    <SectionForm form={form} formRef={formRef} className="location-form" isSubmitting={isSubmitting}>
      {props.mode === 'add' && (
        <form.Field name="email">
          {(field) => (
            <TextField
              field={field}
              label={LABELS.email}
              hint="The officer signs in with this address."
              submitted={submitted}
              type="email"
              autoComplete="off"
            />
          )}
        </form.Field>
      )}
      <form.Field name="display_name">
        {(field) => <TextField field={field} label={LABELS.display_name} submitted={submitted} autoComplete="off" />}
      </form.Field>
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
      <FormFooter
        failure={failure}
        notice={props.notice}
        isSubmitting={isSubmitting}
        submitLabel={props.submitLabel}
        sendingLabel={props.sendingLabel}
        onDiscard={props.allowDiscard && changed ? () => form.reset() : undefined}
      />
    </SectionForm>
  );
}
