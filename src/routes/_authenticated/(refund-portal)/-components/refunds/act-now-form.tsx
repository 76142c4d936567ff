import { useStore, type AnyFormApi } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import { messageOf } from '../../../../../api/error-data';
import { ActionFooter } from '../../../../../ui/form-footer';

/**
 * The failure of a form that acts at once (a refund, a ticket's decision, a note) and the way to run its action:
 * `act(run)` clears the last failure, runs, and on a rejection keeps what `explain` says of it (the server's words by
 * default; a form with fields to place a 400's messages at passes `placeServerErrors`). Nothing typed is cleared.
 */
export function useActNow() {
  const [failure, setFailure] = useState<string | null>(null);
  const act = async (run: () => Promise<void>, explain: (error: unknown) => string | null = messageOf) => {
    setFailure(null);
    try {
      await run();
    } catch (error) {
      setFailure(explain(error));
    }
  };
  return { failure, act };
}

/**
 * The form element of an act-at-once form: no browser checks (the schema speaks), submitted through TanStack Form,
 * then the failure and its one button (waiting while the action runs). `children` get whether a submit was tried, so
 * the fields show their messages from then on.
 */
export function ActNowForm(props: {
  form: AnyFormApi;
  /** The form's name for assistive technology, or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  failure: string | null;
  submitLabel: string;
  sendingLabel: string;
  primary?: boolean;
  children: (submitted: boolean) => ReactNode;
}) {
  const { form } = props;
  const sending = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  return (
    <form
      aria-label={props.label}
      aria-labelledby={props.labelledBy}
      className="stacked-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      {props.children(submitted)}
      <ActionFooter
        failure={props.failure}
        isSubmitting={sending}
        submitLabel={props.submitLabel}
        sendingLabel={props.sendingLabel}
        primary={props.primary}
      />
    </form>
  );
}
