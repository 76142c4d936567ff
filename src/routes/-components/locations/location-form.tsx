import { useForm, useStore, type AnyFieldMeta } from '@tanstack/react-form';
import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf } from '../../../api/error-data';
import {
  LOCATION_STATUSES,
  locationInputSchema,
  MAX_CAPACITY,
  MAX_GRACE_PERIOD_MINUTES,
  type LocationFormValues,
  type LocationInput,
} from '../../../contract/locations';
import { CheckboxField, FormField } from '../../../ui/form-field';
import { FormFooter } from '../../../ui/form-footer';
import { UnsavedChangesPrompt } from '../../../ui/unsaved-changes-prompt';
import { LOCATION_FIELD_LABELS as LABELS, statusLabel } from './location-labels';

type FieldName = keyof LocationFormValues;

let timeZones: string[] | undefined;
/** Every IANA zone the browser knows, for the time zone field's suggestions (computed once, when first needed). */
function knownTimeZones(): string[] {
  timeZones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return timeZones;
}

/** The zone suggestions (some 400): rendered once, not with every keystroke in the field. */
export const TimeZoneOptions = memo(function TimeZoneOptions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {knownTimeZones().map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
});

/** The browser's own zone: the likeliest zone of a location someone is adding. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A number field's text: an empty field is NaN in the form's values, which the schema refuses with its message. */
export const numberText = (value: number) => (Number.isNaN(value) ? '' : String(value));
export const numberValue = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * The first message a field should show: schema messages once the field was changed or left, or after a submit;
 * the server's (a 400's fieldErrors) at once.
 */
export function shownError(meta: AnyFieldMeta, submitted: boolean): string | undefined {
  const serverMessage = meta.errorMap.onServer;
  if (typeof serverMessage === 'string' && serverMessage) return serverMessage;
  if (!(meta.isTouched || meta.isBlurred || submitted)) return undefined;
  for (const error of meta.errors as unknown[]) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      return error.message;
    }
  }
  return undefined;
}

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
    validators: { onChange: locationInputSchema, onBlur: locationInputSchema, onSubmit: locationInputSchema },
    onSubmitInvalid: focusFirstInvalid,
    // A server message about a field stands until that field is changed.
    listeners: {
      onChange: ({ fieldApi }) => {
        if (!fieldApi.state.meta.errorMap.onServer) return;
        fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } }));
      },
    },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      const input = z.parse(locationInputSchema, value);
      let then: (() => void) | void;
      try {
        then = await props.onSave(input);
      } catch (error) {
        const fieldErrors = fieldErrorsOf(error);
        const placed = fieldErrors ? Object.entries(fieldErrors).filter(([field]) => field in LABELS) : [];
        for (const [field, message] of placed) {
          formApi.setFieldMeta(field as FieldName, (meta) => ({
            ...meta,
            errorMap: { ...meta.errorMap, onServer: message },
          }));
        }
        if (placed.length > 0) {
          const unplaced = Object.entries(fieldErrors ?? {}).filter(([field]) => !(field in LABELS));
          if (unplaced.length > 0) setFailure(unplaced.map(([field, message]) => `${field}: ${message}`).join('; '));
          focusFirstInvalid();
        } else if (!props.onSaveFailed?.(error)) {
          setFailure(messageOf(error));
        }
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
            hint="Type to search, e.g. Chicago or America/Chicago. Times of this location are shown in its zone."
            error={shownError(field.state.meta, submitted)}
          >
            {(control) => (
              <>
                <input
                  {...control}
                  name={field.name}
                  className="input"
                  list={`${control.id}-zones`}
                  autoComplete="off"
                  spellCheck={false}
                  value={field.state.value}
                  onChange={(event) => field.handleChange(event.target.value)}
                  onBlur={field.handleBlur}
                />
                <TimeZoneOptions id={`${control.id}-zones`} />
              </>
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
