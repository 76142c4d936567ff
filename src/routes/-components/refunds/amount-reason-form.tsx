import { useForm } from '@tanstack/react-form';
import { useState } from 'react';
import { fieldErrorsOf, messageOf } from '../../../api/error-data';
import { refundFormSchema, type RefundFormValues } from '../../../contract/refunds';
import { FormField } from '../../../ui/form-field';
import { shownError } from '../locations/location-form';
import { dollarsToCents } from './ticket-labels';

export interface AmountReasonFormProps {
  /** Names the form for assistive technology ("Refund", "Open a refund ticket"). */
  title: string;
  defaultAmount: string;
  amountHint: string;
  submitLabel: string;
  sendingLabel: string;
  /**
   * Runs the action with the parsed amount (cents) and reason; rejects to report a failure (a 400's field errors are
   * placed at the fields, anything else is said above the button). Nothing typed is cleared by a failure.
   */
  onSubmit: (amountCents: number, reason: string) => Promise<void>;
}

/** An amount in dollars and a reason (refunds, tickets): TanStack Form checked with the contract's form schema. */
export function AmountReasonForm(props: AmountReasonFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const form = useForm({
    defaultValues: { amount: props.defaultAmount, reason: '' } as RefundFormValues,
    validators: { onChange: refundFormSchema, onSubmit: refundFormSchema },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      try {
        await props.onSubmit(dollarsToCents(value.amount), value.reason.trim());
      } catch (error) {
        const fields = fieldErrorsOf(error);
        const amountError = fields?.amount_cents;
        if (amountError) formApi.setFieldMeta('amount', (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: amountError } }));
        if (fields?.reason) {
          const reasonError = fields.reason;
          formApi.setFieldMeta('reason', (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: reasonError } }));
        }
        const other = fields ? Object.entries(fields).filter(([field]) => field !== 'amount_cents' && field !== 'reason') : [];
        if (!fields || other.length) setFailure(other.length ? other.map(([, message]) => message).join(' ') : messageOf(error));
      }
    },
  });
  return (
    <form
      aria-label={props.title}
      className="stacked-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        void form.handleSubmit();
      }}
    >
      <form.Field
        name="amount"
        listeners={{ onChange: ({ fieldApi }) => fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } })) }}
      >
        {(field) => (
          <FormField label="Amount (USD)" hint={props.amountHint} error={shownError(field.state.meta, submitted)}>
            {(control) => (
              <input
                {...control}
                className="input"
                inputMode="decimal"
                value={field.state.value}
                onBlur={field.handleBlur}
                onChange={(event) => field.handleChange(event.target.value)}
              />
            )}
          </FormField>
        )}
      </form.Field>
      <form.Field name="reason">
        {(field) => (
          <FormField label="Reason" error={shownError(field.state.meta, submitted)}>
            {(control) => (
              <textarea
                {...control}
                className="input"
                rows={2}
                maxLength={500}
                value={field.state.value}
                onBlur={field.handleBlur}
                onChange={(event) => field.handleChange(event.target.value)}
              />
            )}
          </FormField>
        )}
      </form.Field>
      {failure && (
        <div className="form-error" role="alert">
          {failure}
        </div>
      )}
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(sending) => (
          <button type="submit" className="button primary" disabled={sending}>
            {sending ? props.sendingLabel : props.submitLabel}
          </button>
        )}
      </form.Subscribe>
    </form>
  );
}
