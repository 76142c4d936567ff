import { useForm, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import { dollarsToCents } from '../../../../../contract/money-text';
import { refundFormSchema, type RefundFormValues } from '../../../../../contract/refunds';
import { clearServerError, placeServerErrors, shownError } from '../../../../../ui/form-errors';
import { TextAreaField } from '../../../../../ui/bound-fields';
import { FormField } from '../../../../../ui/form-field';
import { ActionFooter } from '../../../../../ui/form-footer';
import { MoneyInput } from '../../../../../ui/money-input';

export interface AmountReasonFormProps {
  /** Names the form for assistive technology ("Refund", "Open a refund ticket"). */
  title: string;
  defaultAmount: string;
  amountHint: string;
  submitLabel: string;
  sendingLabel: string;
  /**
   * Runs the action with the parsed amount in cents and the reason; rejects to report a failure (a 400's field errors are
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
        // The schema has checked the text: it is an amount of dollars and cents.
        await props.onSubmit(dollarsToCents(value.amount)!, value.reason.trim());
      } catch (error) {
        // The server names the amount `amount_cents`; the form holds it as typed, in `amount`.
        setFailure(placeServerErrors(formApi, error, ['amount', 'reason'], (field) => (field === 'amount_cents' ? 'amount' : field)));
      }
    },
  });
  const sending = useStore(form.store, (state) => state.isSubmitting);
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
      <form.Field name="amount" listeners={clearServerError}>
        {(field) => (
          <FormField label="Amount" hint={props.amountHint} error={shownError(field.state.meta, submitted)}>
            {(control) => <MoneyInput {...control} value={field.state.value} onBlur={field.handleBlur} onChange={field.handleChange} />}
          </FormField>
        )}
      </form.Field>
      <form.Field name="reason" listeners={clearServerError}>
        {(field) => <TextAreaField field={field} label="Reason" submitted={submitted} rows={2} maxLength={500} />}
      </form.Field>
      <ActionFooter failure={failure} isSubmitting={sending} submitLabel={props.submitLabel} sendingLabel={props.sendingLabel} />
    </form>
  );
}
