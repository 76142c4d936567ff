import { useForm, useStore } from '@tanstack/react-form';
import { useEffect, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf, versionConflictOf } from '../../../../api/error-data';
import type { VersionConflict } from '../../../../contract/lists';
import { basisPointsToPercentText, percentField, percentToBasisPoints } from '../../../../contract/money-text';
import { RATE_CURRENCIES, rateConfigFieldsShape, type RateLocation } from '../../../../contract/rates';
import { INCREMENT_CHOICES } from '../../../../rates/rate-set';
import { NumberField } from '../../../../ui/bound-fields';
import { FormField } from '../../../../ui/form-field';
import { FormProblem } from '../../../../ui/form-problem';
import { PercentInput } from '../../../../ui/money-input';
import { conflictAuthor, conflictWhen } from '../../../../ui/conflict-notice';
import { UnsavedChangesPrompt } from '../../../../ui/unsaved-changes-prompt';
import { shownError } from '../../../../ui/form-errors';

/** The form's schema: the contract's fields, the tax as a percentage typed ("8.75"), sent as basis points (875). */
const rateConfigFormSchema = z.strictObject({
  ...rateConfigFieldsShape,
  taxBasisPoints: percentField({ label: 'tax', maxBasisPoints: 10_000 }),
});
type Values = z.input<typeof rateConfigFormSchema>;
type FieldName = keyof Values;
type RateConfig = RateLocation['config'];

const valuesOf = (config: RateConfig): Values => ({ ...config, taxBasisPoints: basisPointsToPercentText(config.taxBasisPoints) });
const configOf = (values: Values): RateConfig => {
  const parsed = z.parse(rateConfigFormSchema, values);
  return { ...parsed, taxBasisPoints: percentToBasisPoints(parsed.taxBasisPoints)! };
};

export const RATE_CONFIG_LABELS: Record<FieldName, string> = {
  currency: 'Currency',
  incrementMinutes: 'Increment',
  rounding: 'Rounding',
  graceMinutes: 'Grace period (minutes)',
  taxBasisPoints: 'Tax',
  dailyMaximum: 'Daily maximum counted',
};

/**
 * The rate configuration form (docs/sections.md "Forms"): TanStack Form with the contract's schema, the version the
 * edits were made on kept while they are unsaved, a 409 saying who changed it and when with "Reload their version".
 */
export function RateConfigForm(props: {
  rates: RateLocation;
  save: (config: RateLocation['config'], version: number) => Promise<RateLocation>;
  reload: () => Promise<void>;
}) {
  const { rates } = props;
  const version = useRef(rates.config_version);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const [saved, setSaved] = useState(false);
  // "Reload their version" was pressed: the next configuration loaded replaces what was typed.
  const reloadAsked = useRef(false);

  // The values last loaded or saved. TanStack Form shows a default that differs from its own as new values, so the
  // form's resets and the defaults it is rendered with must stay one object (else a save snaps back to the old ones).
  const [defaultValues, setDefaultValues] = useState(() => valuesOf(rates.config));
  const resetTo = (config: RateConfig) => {
    const next = valuesOf(config);
    setDefaultValues(next);
    form.reset(next);
  };
  const form = useForm({
    defaultValues,
    validators: { onChange: rateConfigFormSchema, onBlur: rateConfigFormSchema, onSubmit: rateConfigFormSchema },
    listeners: {
      onChange: ({ fieldApi }) => {
        setSaved(false);
        if (!fieldApi.state.meta.errorMap.onServer) return;
        fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } }));
      },
    },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      setConflict(null);
      const config = configOf(value);
      try {
        const result = await props.save(config, version.current);
        version.current = result.config_version;
        resetTo(result.config);
        setSaved(true);
      } catch (error) {
        const stale = versionConflictOf(error);
        const fieldErrors = fieldErrorsOf(error);
        if (stale) setConflict(stale);
        else if (fieldErrors) {
          for (const [field, message] of Object.entries(fieldErrors)) {
            if (!(field in RATE_CONFIG_LABELS)) continue;
            formApi.setFieldMeta(field as FieldName, (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: message } }));
          }
        } else setFailure(messageOf(error));
      }
    },
  });
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);

  // A newer configuration loaded (after "Reload their version", or a save elsewhere) replaces the values only when
  // nothing typed would be lost.
  useEffect(() => {
    if (rates.config_version === version.current) return;
    if (!form.state.isDefaultValue && !reloadAsked.current) return;
    reloadAsked.current = false;
    version.current = rates.config_version;
    resetTo(rates.config);
    setConflict(null);
  }, [rates, form]);

  const select = (name: FieldName, options: readonly (readonly [string | number, string])[], numeric = false) => (
    <form.Field name={name}>
      {(field) => (
        <FormField label={RATE_CONFIG_LABELS[name]} error={shownError(field.state.meta, submitted)}>
          {(control) => (
            <select
              {...control}
              className="select"
              name={field.name}
              value={String(field.state.value)}
              onChange={(event) => field.handleChange((numeric ? Number(event.target.value) : event.target.value) as never)}
              onBlur={field.handleBlur}
            >
              {options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
    </form.Field>
  );
  return (
    <form
      className="panel"
      noValidate
      aria-label="Rate configuration"
      aria-busy={isSubmitting || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      <UnsavedChangesPrompt isChanged={() => !form.state.isDefaultValue && !form.state.isSubmitting} />
      <div className="form-row">
        {select('currency', RATE_CURRENCIES.map((code) => [code, code] as const))}
        {select('incrementMinutes', INCREMENT_CHOICES.map((minutes) => [minutes, `${minutes} min`] as const), true)}
        {select('rounding', [['up', 'Every started increment'], ['nearest', 'Nearest increment (half up)']])}
        <form.Field name="graceMinutes">
          {/* Typed as text, as the percentage beside it is; the schema says what is wrong. */}
          {(field) => <NumberField field={field} label={RATE_CONFIG_LABELS.graceMinutes} submitted={submitted} type="text" />}
        </form.Field>
        <form.Field name="taxBasisPoints">
          {(field) => (
            <FormField label={RATE_CONFIG_LABELS.taxBasisPoints} hint="A percentage, like 8.75." error={shownError(field.state.meta, submitted)}>
              {(control) => <PercentInput {...control} name={field.name} value={field.state.value} onChange={field.handleChange} onBlur={field.handleBlur} />}
            </FormField>
          )}
        </form.Field>
        {select('dailyMaximum', [['rolling_24h', 'Per 24 h from arrival'], ['calendar_day', 'Per calendar day']])}
      </div>
      {conflict && (
        <div className="form-error" role="alert">
          <p>
            Changed by {conflictAuthor(conflict) ?? 'someone else'}
            {conflictWhen(conflict, rates.time_zone)} after you opened it;
            nothing was saved.
          </p>
          <button type="button" className="button" onClick={() => {
              reloadAsked.current = true;
              void props.reload();
            }}>
            Reload their version
          </button>
        </div>
      )}
      <FormProblem message={failure} />
      {saved && (
        <p className="form-info" role="status">
          Saved.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save configuration'}
        </button>
      </div>
    </form>
  );
}
