import { useForm, useStore } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import { DISCOUNT_TYPES, MAX_FREE_MINUTES, type DiscountType, type PromoCodeInput } from '../../../../contract/promo-codes';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { DateTimeInput } from '../../../../ui/date-time';
import { clearServerError, placeServerErrors, shownError } from '../../../../ui/form-errors';
import { CheckboxFieldFor, SelectField, TextField } from '../../../../ui/bound-fields';
import { FormField, type FieldControlProps } from '../../../../ui/form-field';
import { FormFooter } from '../../../../ui/form-footer';
import { validateOnEveryEvent } from '../../../../ui/form-validation';
import { MoneyInput, PercentInput } from '../../../../ui/money-input';
import { SectionForm, useFocusFirstInvalid } from '../../../../ui/section-form';
import { draftToInput, promoCodeDraftSchema, promoCodeZone, type PromoCodeDraft } from './promo-code-draft';
import { DISCOUNT_TYPE_LABELS } from './promo-labels';

const FIELDS = Object.keys(promoCodeDraftSchema.shape);

/** The discount field of each type: its hint, and the input that speaks its unit. */
const DISCOUNT_HINTS: Readonly<Record<DiscountType, string>> = {
  amount: 'In dollars and cents, like 5 or 12.50; at most $1,000.00.',
  percent: 'A whole percentage, 1 to 100.',
  minutes: `Whole minutes of free parking, at most ${MAX_FREE_MINUTES.toLocaleString('en-US')} (a week).`,
};

/** Caps hold null for no cap and NaN for what is not a number (refused by the schema with its message). */
const capText = (value: number | null) => (value === null || Number.isNaN(value) ? '' : String(value));
const capValue = (text: string) => (text.trim() === '' ? null : Number(text));

export interface PromoCodeFormProps {
  defaultValues: PromoCodeDraft;
  /** The locations the user may give the code (pc add for a new code, pc edit for an existing one), with their zones. */
  locations: readonly LocationRef[];
  submitLabel: string;
  /** Saves the contract's input; rejects to report a failure (field errors at their fields, the rest above the button). */
  onSave: (input: PromoCodeInput) => Promise<void>;
  /** Shown above the buttons (a version conflict and its way out). */
  notice?: ReactNode;
  /** A failure the screen explains itself (a 409): returns true when it has. */
  onSaveFailed?: (error: unknown) => boolean;
}

/**
 * Add and edit a promo code: the discount typed in its unit ($5 is five dollars), the validity on the clock of the
 * code's locations, checked by the form's schema (promo-code-draft.ts) and sent in the contract's units.
 */
export function PromoCodeForm(props: PromoCodeFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onDynamic: promoCodeDraftSchema },
    validationLogic: validateOnEveryEvent,
    onSubmitInvalid: focusFirstInvalid,
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      try {
        await props.onSave(draftToInput(value, promoCodeZone(value.location_ids, props.locations)));
        formApi.reset(value);
      } catch (error) {
        if (props.onSaveFailed?.(error)) return;
        setFailure(placeServerErrors(formApi, error, FIELDS));
        focusFirstInvalid();
      }
    },
  });
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const discountType = useStore(form.store, (state) => state.values.discount_type);
  const locationIds = useStore(form.store, (state) => state.values.location_ids);
  const timeZone = promoCodeZone(locationIds, props.locations);
  const error = (meta: Parameters<typeof shownError>[0]) => shownError(meta, submitted);
  return (
    <SectionForm form={form} formRef={formRef} aria-label="Promo code" className="stacked-form" isSubmitting={isSubmitting}>
      <form.Field name="code" listeners={clearServerError}>
        {(field) => (
          <TextField
            field={field}
            label="Code"
            hint="4 to 20 letters or digits, the same whatever the case; leave empty to generate one."
            submitted={submitted}
            maxLength={20}
          />
        )}
      </form.Field>
      <form.Field name="discount_type" listeners={clearServerError}>
        {(field) => (
          <SelectField
            field={field}
            label="Discount type"
            submitted={submitted}
            options={DISCOUNT_TYPES}
            labelOf={(type) => DISCOUNT_TYPE_LABELS[type]}
          />
        )}
      </form.Field>
      <form.Field name="discount_value" listeners={clearServerError}>
        {(field) => (
          <FormField label={DISCOUNT_TYPE_LABELS[discountType]} hint={DISCOUNT_HINTS[discountType]} error={error(field.state.meta)}>
            {(control) => <DiscountInput type={discountType} control={control} value={field.state.value} onChange={field.handleChange} onBlur={field.handleBlur} />}
          </FormField>
        )}
      </form.Field>
      <form.Field name="multi_use" listeners={clearServerError}>
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
        <form.Field key={name} name={name} listeners={clearServerError}>
          {(field) => (
            <FormField label={name === 'total_cap' ? 'Total cap' : 'Per-plate cap'} hint="Empty: no cap." error={error(field.state.meta)}>
              {(control) => (
                <input {...control} className="input" inputMode="numeric" value={capText(field.state.value)} onBlur={field.handleBlur} onChange={(event) => field.handleChange(capValue(event.target.value))} />
              )}
            </FormField>
          )}
        </form.Field>
      ))}
      {(['valid_from', 'valid_to'] as const).map((name) => (
        <form.Field key={name} name={name} listeners={clearServerError}>
          {(field) => (
            <FormField
              label={name === 'valid_from' ? 'Valid from' : 'Valid to'}
              hint={name === 'valid_from' ? 'On the clock of the code’s locations.' : 'At most a year after the start.'}
              error={error(field.state.meta)}
            >
              {(control) => <DateTimeInput {...control} timeZone={timeZone} value={field.state.value} onBlur={field.handleBlur} onChange={field.handleChange} />}
            </FormField>
          )}
        </form.Field>
      ))}
      <form.Field name="location_ids" listeners={clearServerError}>
        {(field) => (
          <fieldset className="form-field" aria-invalid={error(field.state.meta) ? true : undefined}>
            <legend className="form-label">Locations</legend>
            {props.locations.map((location) => (
              <label key={location.location_id} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={field.state.value.includes(location.location_id)}
                  onBlur={field.handleBlur}
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
        {(field) => <CheckboxFieldFor field={field} label="Active" submitted={submitted} />}
      </form.Field>
      <FormFooter failure={failure} notice={props.notice} isSubmitting={isSubmitting} submitLabel={props.submitLabel} sendingLabel="Saving…" />
    </SectionForm>
  );
}

/** The input in the discount's unit: "$" for an amount off, "%" for a percentage, plain minutes. */
function DiscountInput(props: { type: DiscountType; control: FieldControlProps; value: string; onChange: (text: string) => void; onBlur: () => void }) {
  const { type, control, ...input } = props;
  if (type === 'amount') return <MoneyInput {...control} {...input} />;
  if (type === 'percent') return <PercentInput {...control} {...input} />;
  return (
    <input {...control} className="input" inputMode="numeric" autoComplete="off" value={input.value} onBlur={input.onBlur} onChange={(event) => input.onChange(event.target.value)} />
  );
}
