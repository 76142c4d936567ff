import { useState } from 'react';
import { versionConflictOf } from '../api/error-data';
import type { VersionConflict } from '../contract/lists';
import { formatDateTime } from './format';

/** Who made the change that conflicts, by name or e-mail; null when the server did not say. */
export const conflictAuthor = (conflict: VersionConflict): string | null =>
  conflict.changedBy ? (conflict.changedBy.name ?? conflict.changedBy.email) : null;

/** " at <time>" of the conflicting change on the given clock, or nothing when the server did not say. */
export const conflictWhen = (conflict: VersionConflict, timeZone: string): string =>
  conflict.changedAt ? ` at ${formatDateTime(conflict.changedAt, timeZone)}` : '';

/** A 409 in words ("changed by X at T"), with the way to see their version: it replaces the typed values only when pressed. */
export function ConflictNotice({
  conflict,
  what,
  timeZone,
  onReload,
}: {
  conflict: VersionConflict;
  what: string;
  timeZone: string;
  onReload: () => Promise<void>;
}) {
  const [reloading, setReloading] = useState(false);
  const who = conflictAuthor(conflict) ?? 'someone else';
  const when = conflictWhen(conflict, timeZone);
  return (
    <div className="conflict-notice" role="alert">
      <p>
        This {what} was changed by {who}
        {when}, after you opened it. Nothing was saved; what you typed is still here.
      </p>
      <button
        type="button"
        className="button"
        disabled={reloading}
        onClick={() => {
          setReloading(true);
          void onReload().finally(() => setReloading(false));
        }}
      >
        {reloading ? 'Loading their version…' : 'Reload their version'}
      </button>
      <p className="form-hint">Reloading replaces what you typed with the saved version.</p>
    </div>
  );
}

/**
 * The 409 an edit screen's save met, kept until the screen clears it: `onSaveFailed` is the form's prop of that name,
 * true when the failure was a conflict (the screen then says so with ConflictNotice, not as a failure).
 */
export function useVersionConflict() {
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const onSaveFailed = (error: unknown) => {
    const found = versionConflictOf(error);
    if (found) setConflict(found);
    return found !== null;
  };
  return { conflict, setConflict, onSaveFailed };
}
