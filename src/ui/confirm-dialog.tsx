import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactElement, ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the dialog; focus returns to it when the dialog closes. */
  trigger?: ReactElement;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while `busy`. */
  busyLabel?: string;
  cancelLabel?: string;
  /** A destructive action: the confirm button is red. Focus always starts on Cancel. */
  destructive?: boolean;
  /** The action is running: both buttons wait, and the dialog stays open until the caller closes it. */
  busy?: boolean;
  /** Why the action failed, shown in the dialog (the caller decides whether to keep it open). */
  error?: ReactNode;
  onConfirm: () => void;
}

/**
 * Asks before an action that cannot simply be undone (Radix AlertDialog: focus trapped inside, Cancel focused first,
 * Escape cancels). The confirm button is not Radix's Action, which would close at once: the caller runs the action
 * and closes the dialog when it succeeded, or keeps it open with the error.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { busy = false } = props;
  return (
    <AlertDialog.Root open={props.open} onOpenChange={(open) => (busy ? undefined : props.onOpenChange(open))}>
      {props.trigger && <AlertDialog.Trigger asChild>{props.trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog" aria-busy={busy || undefined}>
          <AlertDialog.Title className="dialog-title">{props.title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-description">{props.description}</div>
          </AlertDialog.Description>
          {props.error && (
            <div className="form-error" role="alert">
              {props.error}
            </div>
          )}
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button" disabled={busy}>
              {props.cancelLabel ?? 'Cancel'}
            </AlertDialog.Cancel>
            <button
              type="button"
              className={`button ${props.destructive ? 'danger' : 'primary'}`}
              disabled={busy}
              onClick={props.onConfirm}
            >
              {busy ? (props.busyLabel ?? props.confirmLabel) : props.confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
