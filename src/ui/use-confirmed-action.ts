import { useState } from 'react';
import { fieldErrorsOf, messageOf } from '../api/error-data';

/** A failed action in words: a 400's messages, or what the server (or the action) said. */
const failureText = (error: unknown): string => {
  const fields = fieldErrorsOf(error);
  return fields ? Object.values(fields).join(' ') : messageOf(error);
};

/**
 * The state of a ConfirmDialog whose action runs on the server (Disable, Delete, Replace and copy): `dialog` is
 * spread onto ConfirmDialog. Confirming runs `run` with both buttons waiting; a failure stays in the dialog in words
 * (cleared when it closes); a success closes it, then runs what `run` resolved with (a toast, leaving the page).
 * `onClose` resets what the dialog itself holds (a typed confirmation).
 */
export function useConfirmedAction(run: () => Promise<(() => void) | void>, onClose?: () => void) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) return;
    setError(null);
    onClose?.();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    let then: (() => void) | void;
    try {
      then = await run();
    } catch (failure) {
      setError(failureText(failure));
      return;
    } finally {
      setBusy(false);
    }
    onOpenChange(false);
    then?.();
  };
  return { dialog: { open, onOpenChange, busy, error, onConfirm: () => void confirm() }, show: () => onOpenChange(true) };
}
