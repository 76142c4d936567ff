import { useForm, useStore } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import {
  LOCATION_STATUSES,
  locationInputSchema,
  type LocationFormValues,
  type LocationInput,
} from '../../../../contract/locations';
import { CheckboxFieldFor, SelectField, TextField, TimeZoneField } from '../../../../ui/bound-fields';
import { CapacityField, GracePeriodField } from '../../../-shared/location-fields';
import { clearServerError, placeServerErrors } from '../../../../ui/form-errors';
import { FormFooter } from '../../../../ui/form-footer';
import { validateOnEveryEvent } from '../../../../ui/form-validation';
import { SectionForm, useFocusFirstInvalid, useReportChanged } from '../../../../ui/section-form';
import { LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

const FIELDS = Object.keys(LABELS);



export interface LocationFormProps {
  defaultValues: LocationFormValues;
  submitLabel: string;
  sendingLabel: string;
  /** The add form sets the status; the edit form leaves it to Deactivate/Activate. */
  showStatus: boolean;
  /**
   * Saves the values (parsed with locationInputSchema). Rejects to report a failure; may resolve with what to do
   * once the form holds the saved values and no longer counts as changed (navigate away, say).
   */
  onSave: (input: LocationInput) => Promise<(() => void) | void>;
  /** A failure the screen explains itself (a version conflict): returns true when it has. */
  onSaveFailed?: (error: unknown) => boolean;
  /** The values differ from the saved ones, or no longer do. */
  onChangedChange?: (changed: boolean) => void;
  /** Shown above the buttons (the conflict notice). */
  notice?: ReactNode;
  /** Offer "Discard changes" (back to the saved values) while the values differ from them. */
  allowDiscard?: boolean;
}

/**
 * The location form of both add and edit (docs/sections.md "Forms"): TanStack Form validating with the contract's
 * locationInputSchema, so the messages are the schema's, placed at each field; a 400's fieldErrors are placed the
 * same way. The submit button waits while sending; what was typed stays on any failure; leaving with unsaved
 * changes asks first.
 */
export function LocationForm(props: LocationFormProps) {
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [failure, setFailure] = useState<string | null>(null);


  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onDynamic: locationInputSchema },
    validationLogic: validateOnEveryEvent,
    onSubmitInvalid: focusFirstInvalid,
    listeners: clearServerError,
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      const input = z.parse(locationInputSchema, value);
      let then: (() => void) | void;
      try {
        then = await props.onSave(input);
      } catch (error) {
        if (props.onSaveFailed?.(error)) return;
        setFailure(placeServerErrors(formApi, error, FIELDS));
        focusFirstInvalid();
        return;
      }
      // Saved: these values are now the saved ones, so leaving no longer asks.
      formApi.reset(value);
      then?.();
    },
  });

  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const changed = useStore(form.store, (state) => !state.isDefaultValue);
  const address = useStore(form.store, (state) => state.values.address);
  useReportChanged(changed, props.onChangedChange);

  return (
    <SectionForm form={form} formRef={formRef} className="location-form" isSubmitting={isSubmitting}>
      <form.Field name="name">
        {(field) => <TextField field={field} label={LABELS.name} submitted={submitted} autoComplete="off" />}
      </form.Field>
      <form.Field name="address">
        {(field) => <TextField field={field} label={LABELS.address} submitted={submitted} autoComplete="street-address" />}
      </form.Field>
      <form.Field name="time_zone">
        {(field) => <TimeZoneField field={field} label={LABELS.time_zone} submitted={submitted} address={address} />}
      </form.Field>
      <div className="form-row">
        <form.Field name="capacity">
          {(field) => <CapacityField field={field} label={LABELS.capacity!} submitted={submitted} />}
        </form.Field>
        <form.Field name="grace_period_minutes">
          {(field) => <GracePeriodField field={field} label={LABELS.grace_period_minutes!} submitted={submitted} />}
        </form.Field>
      </div>
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
