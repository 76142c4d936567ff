import { useForm, useStore } from '@tanstack/react-form';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import {
  LOCATION_STATUSES,
  locationInputSchema,
  MAX_CAPACITY,
  MAX_GRACE_PERIOD_MINUTES,
  type LocationFormValues,
  type LocationInput,
} from '../../../contract/locations';
import { CheckboxField, FormField } from '../../../ui/form-field';
import { clearServerError, placeServerErrors, shownError } from '../../../ui/form-errors';
import { FormFooter } from '../../../ui/form-footer';
import { numberText, numberValue } from '../../../ui/form-values';
import { validateOnEveryEvent } from '../../../ui/form-validation';
import { TimeZoneSelect } from '../../../ui/time-zone-select';
import { UnsavedChangesPrompt } from '../../../ui/unsaved-changes-prompt';
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
  const formRef = useRef<HTMLFormElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { onChangedChange } = props;

  const focusFirstInvalid = () =>
    setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

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
  // Told when `changed` flips, not on every render (the parent's callback is a new function each time).
  const onChangedChangeRef = useRef(onChangedChange);
  useEffect(() => {
    onChangedChangeRef.current = onChangedChange;
  });
  useEffect(() => onChangedChangeRef.current?.(changed), [changed]);

  return (
    <form
      ref={formRef}
      className="location-form"
      noValidate
      aria-busy={isSubmitting || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      <UnsavedChangesPrompt isChanged={() => !form.state.isDefaultValue && !form.state.isSubmitting} />
      <form.Field name="name">
        {(field) => (
          <FormField label={LABELS.name} error={shownError(field.state.meta, submitted)}>
            {(control) => (
              <input
                {...control}
                name={field.name}
                className="input"
                autoComplete="off"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
                onBlur={field.handleBlur}
              />
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="address">
        {(field) => (
          <FormField label={LABELS.address} error={shownError(field.state.meta, submitted)}>
            {(control) => (
              <input
                {...control}
                name={field.name}
                className="input"
                autoComplete="street-address"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value)}
                onBlur={field.handleBlur}
              />
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="time_zone">
        {(field) => (
          <FormField
            label={LABELS.time_zone}
            hint="Times of this location are shown on its clock."
            error={shownError(field.state.meta, submitted)}
          >
            {(control) => (
              <TimeZoneSelect
                control={control}
                name={field.name}
                value={field.state.value}
                address={address}
                onChange={field.handleChange}
                onBlur={field.handleBlur}
              />
            )}
          </FormField>
        )}
      </form.Field>
      <div className="form-row">
        <form.Field name="capacity">
          {(field) => (
            <FormField label={LABELS.capacity} hint={`0 to ${MAX_CAPACITY.toLocaleString('en-US')}`} error={shownError(field.state.meta, submitted)}>
              {(control) => (
                <input
                  {...control}
                  name={field.name}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_CAPACITY}
                  step={1}
                  value={numberText(field.state.value)}
                  onChange={(event) => field.handleChange(numberValue(event.target.value))}
                  onBlur={field.handleBlur}
                />
              )}
            </FormField>
          )}
        </form.Field>
        <form.Field name="grace_period_minutes">
          {(field) => (
            <FormField
              label={`${LABELS.grace_period_minutes} (minutes)`}
              hint={`How long after expiry a car is still treated as paid; 0 to ${MAX_GRACE_PERIOD_MINUTES}.`}
              error={shownError(field.state.meta, submitted)}
            >
              {(control) => (
                <input
                  {...control}
                  name={field.name}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_GRACE_PERIOD_MINUTES}
                  step={1}
                  value={numberText(field.state.value)}
                  onChange={(event) => field.handleChange(numberValue(event.target.value))}
                  onBlur={field.handleBlur}
                />
              )}
            </FormField>
          )}
        </form.Field>
      </div>
      <form.Field name="enforcement_enabled">
        {(field) => (
          <CheckboxField
            label="Enforcement on"
            hint="Officers check plates at this location."
            error={shownError(field.state.meta, submitted)}
          >
            {(control) => (
              <input
                {...control}
                name={field.name}
                type="checkbox"
                checked={field.state.value}
                onChange={(event) => field.handleChange(event.target.checked)}
                onBlur={field.handleBlur}
              />
            )}
          </CheckboxField>
        )}
      </form.Field>
      {props.showStatus && (
        <form.Field name="status">
          {(field) => (
            <FormField label={LABELS.status} error={shownError(field.state.meta, submitted)}>
              {(control) => (
                <select
                  {...control}
                  name={field.name}
                  className="select"
                  value={field.state.value}
                  onChange={(event) => field.handleChange(event.target.value as LocationFormValues['status'])}
                  onBlur={field.handleBlur}
                >
                  {LOCATION_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {statusLabel(status)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
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
    </form>
  );
}
