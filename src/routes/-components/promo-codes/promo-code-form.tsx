import { useForm, type AnyFieldApi } from '@tanstack/react-form';
import { useRef, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf } from '../../../api/error-data';
import { DISCOUNT_TYPES, promoCodeInputSchema, type PromoCodeFormValues, type PromoCodeInput } from '../../../contract/promo-codes';
import type { LocationRef } from '../../../permissions/permissions-object';
import { CheckboxField, FormField } from '../../../ui/form-field';
import { UnsavedChangesPrompt } from '../../../ui/unsaved-changes-prompt';
import { shownError } from '../locations/location-form';

/** A server message stays at its field until the field changes. */
const clearServer = {
  onChange: ({ fieldApi }: { fieldApi: AnyFieldApi }) =>
    fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } })),
};

const DISCOUNT_LABELS = { percent: 'Percent off', amount: 'Amount off (cents, USD)', minutes: 'Free minutes' } as const;

/** Number fields hold NaN when empty (refused by the schema with its message); caps hold null (no cap). */
const numberText = (value: number | null) => (value === null || Number.isNaN(value) ? '' : String(value));
const numberValue = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
const capValue = (text: string) => (text.trim() === '' ? null : Number(text));
/** The form edits instants in UTC to the minute: "2026-03-01T00:00" ↔ "2026-03-01T00:00:00.000Z". */
const minuteText = (iso: string) => iso.slice(0, 16);
const instantValue = (text: string) => (text ? `${text}:00.000Z` : '');

export interface PromoCodeFormProps {
  defaultValues: PromoCodeFormValues;
  /** The locations the user may give the code (pc add for a new code, pc edit for an existing one). */
  locations: readonly LocationRef[];
  submitLabel: string;
  /** Saves the parsed values; rejects to report a failure (field errors at their fields, the rest above the button). */
  onSave: (input: PromoCodeInput) => Promise<void>;
  /** Shown above the buttons (a version conflict and its way out). */
  notice?: ReactNode;
  /** A failure the screen explains itself (a 409): returns true when it has. */
  onSaveFailed?: (error: unknown) => boolean;
}

/** Add and edit a promo code: TanStack Form checked with the contract's input schema. */
export function PromoCodeForm(props: PromoCodeFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const firstError = useRef<HTMLFormElement>(null);
  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onChange: promoCodeInputSchema, onSubmit: promoCodeInputSchema },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      try {
        await props.onSave(z.parse(promoCodeInputSchema, value));
        formApi.reset(value);
      } catch (error) {
        if (props.onSaveFailed?.(error)) return;
        const fields = fieldErrorsOf(error);
        if (!fields) return setFailure(messageOf(error));
        const rest: string[] = [];
        for (const [field, message] of Object.entries(fields)) {
          if (field in props.defaultValues) {
            formApi.setFieldMeta(field as keyof PromoCodeFormValues, (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: message } }));
          } else rest.push(message);
        }
        if (rest.length) setFailure(rest.join(' '));
      }
    },
    onSubmitInvalid: () => firstError.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
  });
  const error = (meta: Parameters<typeof shownError>[0]) => shownError(meta, submitted);
  return (
    <form
      ref={firstError}
      aria-label="Promo code"
      className="stacked-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        void form.handleSubmit();
      }}
    >
      <form.Field name="code" listeners={clearServer}>
        {(field) => (
          <FormField label="Code" hint="4 to 20 letters or digits, the same whatever the case; leave empty to generate one." error={error(field.state.meta)}>
            {(control) => (
              <input {...control} className="input" maxLength={20} value={field.state.value} onBlur={field.handleBlur} onChange={(event) => field.handleChange(event.target.value)} />
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="discount_type">
        {(field) => (
          <FormField label="Discount type" error={error(field.state.meta)}>
            {(control) => (
              <select {...control} className="select" value={field.state.value} onChange={(event) => field.handleChange(event.target.value as PromoCodeFormValues['discount_type'])}>
                {DISCOUNT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {DISCOUNT_LABELS[type]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="discount_value" listeners={clearServer}>
        {(field) => (
          <FormField label="Discount" hint="Percent 1–100, an amount in cents, or minutes." error={error(field.state.meta)}>
            {(control) => (
              <input {...control} className="input" inputMode="numeric" value={numberText(field.state.value)} onBlur={field.handleBlur} onChange={(event) => field.handleChange(numberValue(event.target.value))} />
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="multi_use">
        {(field) => (
          <FormField label="Use" error={error(field.state.meta)}>
            {(control) => (
              <select {...control} className="select" value={field.state.value ? 'multi' : 'single'} onChange={(event) => field.handleChange(event.target.value === 'multi')}>
                <option value="single">Single use (once in all)</option>
                <option value="multi">Multi use</option>
              </select>
            )}
          </FormField>
        )}
      </form.Field>
      {(['total_cap', 'per_plate_cap'] as const).map((name) => (
        <form.Field key={name} name={name} listeners={clearServer}>
          {(field) => (
            <FormField label={name === 'total_cap' ? 'Total cap' : 'Per-plate cap'} hint="Empty: no cap." error={error(field.state.meta)}>
              {(control) => (
                <input {...control} className="input" inputMode="numeric" value={numberText(field.state.value)} onBlur={field.handleBlur} onChange={(event) => field.handleChange(capValue(event.target.value))} />
              )}
            </FormField>
          )}
        </form.Field>
      ))}
      {(['valid_from', 'valid_to'] as const).map((name) => (
        <form.Field key={name} name={name} listeners={clearServer}>
          {(field) => (
            <FormField label={name === 'valid_from' ? 'Valid from (UTC)' : 'Valid to (UTC)'} hint={name === 'valid_to' ? 'At most a year after the start.' : undefined} error={error(field.state.meta)}>
              {(control) => (
                <input {...control} type="datetime-local" className="input" value={minuteText(field.state.value)} onBlur={field.handleBlur} onChange={(event) => field.handleChange(instantValue(event.target.value))} />
              )}
            </FormField>
          )}
        </form.Field>
      ))}
      <form.Field name="location_ids" listeners={clearServer}>
        {(field) => (
          <fieldset className="form-field" aria-invalid={error(field.state.meta) ? true : undefined}>
            <legend className="form-label">Locations</legend>
            {props.locations.map((location) => (
              <label key={location.location_id} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={field.state.value.includes(location.location_id)}
                  onChange={(event) =>
                    field.handleChange(
                      event.target.checked
                        ? [...field.state.value, location.location_id]
                        : field.state.value.filter((id: number) => id !== location.location_id),
                    )
                  }
                />{' '}
                {location.name}
              </label>
            ))}
            {error(field.state.meta) && <p className="field-error">{error(field.state.meta)}</p>}
          </fieldset>
        )}
      </form.Field>
      <form.Field name="active">
        {(field) => (
          <CheckboxField label="Active" error={error(field.state.meta)}>
            {(control) => <input {...control} type="checkbox" checked={field.state.value} onChange={(event) => field.handleChange(event.target.checked)} />}
          </CheckboxField>
        )}
      </form.Field>
      {props.notice}
      {failure && (
        <div className="form-error" role="alert">
          {failure}
        </div>
      )}
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(saving) => (
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? 'Saving…' : props.submitLabel}
          </button>
        )}
      </form.Subscribe>
      <UnsavedChangesPrompt isChanged={() => !form.state.isDefaultValue && !form.state.isSubmitting} />
    </form>
  );
}
