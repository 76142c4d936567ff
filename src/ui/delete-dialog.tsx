import type { ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import type { useConfirmedAction } from './use-confirmed-action';

/**
 * Delete after asking: the button that opens the question (`label`, "Delete role"), then Cancel or a red Delete
 * that waits ("Deleting…") while `action` runs; a refusal is said inside the dialog.
 */
export function DeleteDialog({
  action,
  label,
  outline = false,
  title,
  description,
}: {
  action: ReturnType<typeof useConfirmedAction>;
  label: string;
  /** A lesser delete beside the record's main actions: outlined in red, not filled. */
  outline?: boolean;
  title: string;
  description: ReactNode;
}) {
  return (
    <ConfirmDialog
      {...action.dialog}
      trigger={
        <button type="button" className={outline ? 'button danger-outline' : 'button danger'}>
          {label}
        </button>
      }
      title={title}
      description={description}
      confirmLabel="Delete"
      busyLabel="Deleting…"
      destructive
    />
  );
}
