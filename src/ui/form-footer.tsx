import type { ReactNode } from 'react';

/**
 * The end of a section's form: why the last save failed (typed values stay), a notice the screen adds (a conflict),
 * then Save (waiting while it runs) and, where offered, Discard changes once something changed.
 */
export function FormFooter(props: {
  failure: string | null;
  notice?: ReactNode;
  isSubmitting: boolean;
  submitLabel: string;
  sendingLabel: string;
  /** Shown only when given: the edit screens' way back to the saved values. */
  onDiscard?: (() => void) | undefined;
  /** Shown only when given: the panels' way to close without saving. */
  onCancel?: (() => void) | undefined;
}) {
  return (
    <>
      {props.failure && (
        <p className="form-error" role="alert">
          Not saved: {props.failure}
        </p>
      )}
      {props.notice}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={props.isSubmitting}>
          {props.isSubmitting ? props.sendingLabel : props.submitLabel}
        </button>
        {props.onDiscard && (
          <button type="button" className="button" disabled={props.isSubmitting} onClick={props.onDiscard}>
            Discard changes
          </button>
        )}
        {props.onCancel && (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}

/**
 * The end of a form that acts at once (a refund, a ticket's decision, a note): the failure as the server said it, then
 * the one button, waiting while it runs.
 */
export function ActionFooter(props: {
  failure: string | null;
  isSubmitting: boolean;
  submitLabel: string;
  sendingLabel: string;
  /** The form's main action (the default), or a lesser one beside other content. */
  primary?: boolean;
}) {
  return (
    <>
      {props.failure && (
        <div className="form-error" role="alert">
          {props.failure}
        </div>
      )}
      <button type="submit" className={props.primary === false ? 'button' : 'button primary'} disabled={props.isSubmitting}>
        {props.isSubmitting ? props.sendingLabel : props.submitLabel}
      </button>
    </>
  );
}
