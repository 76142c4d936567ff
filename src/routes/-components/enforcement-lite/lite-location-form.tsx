import { useForm, useStore } from '@tanstack/react-form';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import {
  LITE_LOCATION_STATUSES,
  liteLocationInputSchema,
  type LiteLocationFormValues,
  type LiteLocationInput,
} from '../../../contract/enforcement-lite';
import { MAX_CAPACITY, MAX_GRACE_PERIOD_MINUTES } from '../../../contract/locations';
import { FormField } from '../../../ui/form-field';
import { FormFooter } from '../../../ui/form-footer';
import { validateOnEveryEvent } from '../../../ui/form-validation';
import { TimeZoneSelect } from '../../../ui/time-zone-select';
import { UnsavedChangesPrompt } from '../../../ui/unsaved-changes-prompt';
import { clearServerError, placeServerErrors, shownError } from '../../../ui/form-errors';
import { numberText, numberValue } from '../../../ui/form-values';
import { LITE_LOCATION_LABELS as LABELS, liteLocationStatusLabel } from './lite-labels';

type TextField = 'name' | 'address' | 'operator_name';
const FIELDS = Object.keys(liteLocationInputSchema.shape);

export interface LiteLocationFormProps {
  defaultValues: LiteLocationFormValues;
  submitLabel: string;
  sendingLabel: string;
  /** Saves the parsed values; may resolve with what to do once the form no longer counts as changed. */
  onSave: (input: LiteLocationInput) => Promise<(() => void) | void>;
  /** A failure the screen explains itself (a version conflict): returns true when it has. */
  onSaveFailed?: (error: unknown) => boolean;
  onChangedChange?: (changed: boolean) => void;
  notice?: ReactNode;
  allowDiscard?: boolean;
}

/**
 * The lite location form of add and edit, like the Locations form (docs/sections.md "Forms"): the contract's
 * schema validates and words the messages, a 400 is placed at its fields, nothing typed is lost on failure, and
 * leaving with unsaved changes asks first. Enforcement is always on for a lite location, so it is no field.
 */
export function LiteLocationForm(props: LiteLocationFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const focusFirstInvalid = () =>
    setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onDynamic: liteLocationInputSchema },
    validationLogic: validateOnEveryEvent,
    onSubmitInvalid: focusFirstInvalid,
    listeners: clearServerError,
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      let then: (() => void) | void;
      try {
        then = await props.onSave(z.parse(liteLocationInputSchema, value));
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
  const address = useStore(form.store, (state) => state.values.address);
  const onChangedChange = useRef(props.onChangedChange);
  useEffect(() => {
    onChangedChange.current = props.onChangedChange;
  });
  useEffect(() => onChangedChange.current?.(changed), [changed]);

  const text = (name: TextField, autoComplete: string, hint?: string) => (
    <form.Field name={name}>
      {(field) => (
        <FormField label={LABELS[name]} hint={hint} error={shownError(field.state.meta, submitted)}>
          {(control) => (
            <input
              {...control}
              name={field.name}
              className="input"
              autoComplete={autoComplete}
              value={field.state.value}
              onChange={(event) => field.handleChange(event.target.value)}
              onBlur={field.handleBlur}
            />
          )}
        </FormField>
      )}
    </form.Field>
  );
  const count = (name: 'capacity' | 'grace_period_minutes', label: string, max: number, hint: string) => (
    <form.Field name={name}>
      {(field) => (
        <FormField label={label} hint={hint} error={shownError(field.state.meta, submitted)}>
          {(control) => (
            <input
              {...control}
              name={field.name}
              className="input"
              type="number"
              inputMode="numeric"
              min={0}
              max={max}
              step={1}
              value={numberText(field.state.value)}
              onChange={(event) => field.handleChange(numberValue(event.target.value))}
              onBlur={field.handleBlur}
            />
          )}
        </FormField>
      )}
    </form.Field>
  );

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
      {text('name', 'off')}
      {text('operator_name', 'organization', 'The company that runs this location.')}
      {text('address', 'street-address')}
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
        {count('capacity', LABELS.capacity!, MAX_CAPACITY, `0 to ${MAX_CAPACITY.toLocaleString('en-US')}`)}
        {count(
          'grace_period_minutes',
          `${LABELS.grace_period_minutes} (minutes)`,
          MAX_GRACE_PERIOD_MINUTES,
          `How long after expiry a car is still treated as paid; 0 to ${MAX_GRACE_PERIOD_MINUTES}.`,
        )}
      </div>
      <form.Field name="status">
        {(field) => (
          <FormField
            label={LABELS.status}
            hint="Officers enforce only at active lite locations."
            error={shownError(field.state.meta, submitted)}
          >
            {(control) => (
              <select
                {...control}
                name={field.name}
                className="select"
                value={field.state.value}
                onChange={(event) => field.handleChange(event.target.value as LiteLocationFormValues['status'])}
                onBlur={field.handleBlur}
              >
                {LITE_LOCATION_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {liteLocationStatusLabel(status)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
      </form.Field>
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
