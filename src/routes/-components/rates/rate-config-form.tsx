import { useForm, useStore } from '@tanstack/react-form';
import { useEffect, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf, versionConflictOf } from '../../../api/error-data';
import type { VersionConflict } from '../../../contract/lists';
import { RATE_CURRENCIES, rateConfigSchema, type RateLocation } from '../../../contract/rates';
import { INCREMENT_CHOICES } from '../../../rates/rate-set';
import { FormField } from '../../../ui/form-field';
import { formatDateTime } from '../../../ui/format';
import { UnsavedChangesPrompt } from '../../../ui/unsaved-changes-prompt';
import { shownError } from '../locations/location-form';

type Values = z.input<typeof rateConfigSchema>;
type FieldName = keyof Values;

export const RATE_CONFIG_LABELS: Record<FieldName, string> = {
  currency: 'Currency',
  incrementMinutes: 'Increment',
  rounding: 'Rounding',
  graceMinutes: 'Grace period (minutes)',
  taxBasisPoints: 'Tax (hundredths of a percent: 875 = 8.75 %)',
  dailyMaximum: 'Daily maximum counted',
};
const numberText = (value: number) => (Number.isNaN(value) ? '' : String(value));
const numberValue = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

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

  const form = useForm({
    defaultValues: rates.config as Values,
    validators: { onChange: rateConfigSchema, onBlur: rateConfigSchema, onSubmit: rateConfigSchema },
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
      const config = z.parse(rateConfigSchema, value);
      try {
        const result = await props.save(config, version.current);
        version.current = result.config_version;
        formApi.reset(result.config as Values);
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
    form.reset(rates.config as Values);
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
  const number = (name: 'graceMinutes' | 'taxBasisPoints') => (
    <form.Field name={name}>
      {(field) => (
        <FormField label={RATE_CONFIG_LABELS[name]} error={shownError(field.state.meta, submitted)}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="numeric"
              name={field.name}
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
        {number('graceMinutes')}
        {number('taxBasisPoints')}
        {select('dailyMaximum', [['rolling_24h', 'Per 24 h from arrival'], ['calendar_day', 'Per calendar day']])}
      </div>
      {conflict && (
        <div className="form-error" role="alert">
          <p>
            Changed by {conflict.changedBy ? (conflict.changedBy.name ?? conflict.changedBy.email) : 'someone else'}
            {conflict.changedAt ? ` at ${formatDateTime(conflict.changedAt, rates.time_zone)}` : ''} after you opened it;
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
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
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
