import { waitingCount } from '../../api/citation-outbox/outbox';
import { OutboxDatabase } from '../../api/citation-outbox/outbox-db';
import { ConfirmDialog } from '../../ui/confirm-dialog';

/**
 * What logout asks about the officer's citations (issue 38): loaded only when Logout is pressed, so that the outbox and
 * Dexie stay off every page's first load.
 */

/** The officer's citations on this device that have not reached the office yet; 0 when the device cannot say. */
export async function unsentCitations(officer: string): Promise<number> {
  const outbox = new OutboxDatabase();
  try {
    return await waitingCount(outbox, officer);
  } catch {
    return 0;
  } finally {
    outbox.close();
  }
}

export function UnsentCitationsQuestion({ count, onStay, onLogout }: { count: number; onStay: () => void; onLogout: () => void }) {
  const citations = count === 1 ? '1 citation' : `${count.toLocaleString('en-US')} citations`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => {
        if (!open) onStay();
      }}
      title="Log out before your citations are uploaded?"
      description={
        <p>
          {citations} written on this device {count === 1 ? 'has' : 'have'} not reached the office yet. Logging out keeps
          them here: they upload when you sign in on this device again with a network. Stay signed in to upload them now.
        </p>
      }
      cancelLabel="Stay signed in"
      confirmLabel="Log out and keep them"
      onConfirm={onLogout}
    />
  );
}
