import { useForm, useStore } from '@tanstack/react-form';
import { dollarsToCents } from '../../../../../contract/money-text';
import { refundFormSchema, type RefundFormValues } from '../../../../../contract/refunds';
import { clearServerError, placeServerErrors, shownError } from '../../../../../ui/form-errors';
import { TextAreaField } from '../../../../../ui/bound-fields';
import { FormField } from '../../../../../ui/form-field';
import { MoneyInput } from '../../../../../ui/money-input';
import { ActNowForm, useActNow } from './act-now-form';

export interface AmountReasonFormProps {
  /** Names the form for assistive technology ("Refund", "Open a refund ticket"). */
  title: string;
  defaultAmount: string;
  amountHint: string;
  /**
   * The most this amount may be (what is left of the ticket or the payment), with what to say above it: checked at the
   * field as it is typed and before `onSubmit` runs, so a refund above it never reaches its confirmation.
   */
  max: { cents: number; problem: string };
  /** The button's label; a function follows the amount as typed (its cents, or null while it is no amount). */
  submitLabel: string | ((amountCents: number | null) => string);
  sendingLabel: string;
  /**
   * Runs the action with the parsed amount in cents and the reason; rejects to report a failure (a 400's field errors are
   * placed at the fields, anything else is said above the button). Nothing typed is cleared by a failure.
   */
  onSubmit: (amountCents: number, reason: string) => Promise<void>;
}

/** An amount in dollars and a reason (refunds, tickets): TanStack Form checked with the contract's form schema. */
export function AmountReasonForm(props: AmountReasonFormProps) {
  const { failure, act } = useActNow();
  const { max } = props;
  const form = useForm({
    defaultValues: { amount: props.defaultAmount, reason: '' } as RefundFormValues,
    validators: { onChange: refundFormSchema, onSubmit: refundFormSchema },
    onSubmit: ({ value, formApi }) =>
      act(
        // The schema has checked the text: it is an amount of dollars and cents.
        () => props.onSubmit(dollarsToCents(value.amount)!, value.reason.trim()),
        // The server names the amount `amount_cents`; the form holds it as typed, in `amount`.
        (error) => placeServerErrors(formApi, error, ['amount', 'reason'], (field) => (field === 'amount_cents' ? 'amount' : field)),
      ),
  });
  const typedCents = useStore(form.store, (state) => dollarsToCents(state.values.amount));
  const submitLabel = typeof props.submitLabel === 'string' ? props.submitLabel : props.submitLabel(typedCents);
  return (
    <ActNowForm form={form} label={props.title} failure={failure} submitLabel={submitLabel} sendingLabel={props.sendingLabel}>
      {(submitted) => (
        <>
          <form.Field
            name="amount"
            listeners={clearServerError}
            validators={{ onChange: ({ value }) => ((dollarsToCents(value) ?? 0) > max.cents ? max.problem : undefined) }}
          >
            {(field) => (
              <FormField label="Amount" hint={props.amountHint} error={shownError(field.state.meta, submitted)}>
                {(control) => <MoneyInput {...control} value={field.state.value} onBlur={field.handleBlur} onChange={field.handleChange} />}
              </FormField>
            )}
          </form.Field>
          <form.Field name="reason" listeners={clearServerError}>
            {(field) => <TextAreaField field={field} label="Reason" submitted={submitted} rows={2} maxLength={500} />}
          </form.Field>
        </>
      )}
    </ActNowForm>
  );
}
