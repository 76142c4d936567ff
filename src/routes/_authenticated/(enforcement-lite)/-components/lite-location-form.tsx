import { useForm, useStore } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import {
  LITE_LOCATION_STATUSES,
  liteLocationInputSchema,
  type LiteLocationFormValues,
  type LiteLocationInput,
} from '../../../../contract/enforcement-lite';
import { SelectField, TextField, TimeZoneField } from '../../../../ui/bound-fields';
import { CapacityField, GracePeriodField } from '../../../-shared/location-fields';
import { FormFooter } from '../../../../ui/form-footer';
import { validateOnEveryEvent } from '../../../../ui/form-validation';
import { SectionForm, useFocusFirstInvalid, useReportChanged } from '../../../../ui/section-form';
import { clearServerError, placeServerErrors } from '../../../../ui/form-errors';
import { LITE_LOCATION_LABELS as LABELS, liteLocationStatusLabel } from './lite-labels';

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
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [failure, setFailure] = useState<string | null>(null);

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
  useReportChanged(changed, props.onChangedChange);

  return (
    <SectionForm form={form} formRef={formRef} className="location-form" isSubmitting={isSubmitting}>
      <form.Field name="name">
        {(field) => <TextField field={field} label={LABELS.name} submitted={submitted} autoComplete="off" />}
      </form.Field>
      <form.Field name="operator_name">
        {(field) => (
          <TextField
            field={field}
            label={LABELS.operator_name}
            hint="The company that runs this location."
            submitted={submitted}
            autoComplete="organization"
          />
        )}
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
      <form.Field name="status">
        {(field) => (
          <SelectField
            field={field}
            label={LABELS.status}
            hint="Officers enforce only at active lite locations."
            submitted={submitted}
            options={LITE_LOCATION_STATUSES}
            labelOf={liteLocationStatusLabel}
          />
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
    </SectionForm>
  );
}
