import { useBlocker } from '@tanstack/react-router';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Asks before leaving a form with unsaved changes: a link, the sidebar, back or forward (TanStack Router's blocker,
 * answered in our dialog), and a reload or closed tab (the browser's own prompt).
 */
export function UnsavedChangesPrompt({ isChanged }: { isChanged: () => boolean }) {
  // Asked at the moment of leaving, not at the last render: a form that has just saved leaves without asking.
  const blocker = useBlocker({ shouldBlockFn: () => isChanged(), enableBeforeUnload: isChanged, withResolver: true });
  return (
    <ConfirmDialog
      open={blocker.status === 'blocked'}
      onOpenChange={(open) => {
        if (!open) blocker.reset?.();
      }}
      title="Leave without saving?"
      description="Your changes on this page have not been saved and will be lost."
      cancelLabel="Stay on this page"
      confirmLabel="Leave"
      destructive
      onConfirm={() => blocker.proceed?.()}
    />
  );
}
