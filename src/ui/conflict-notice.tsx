import { useState } from 'react';
import type { VersionConflict } from '../contract/lists';
import { formatDateTime } from './format';

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
  const who = conflict.changedBy ? (conflict.changedBy.name ?? conflict.changedBy.email) : 'someone else';
  const when = conflict.changedAt ? ` at ${formatDateTime(conflict.changedAt, timeZone)}` : '';
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
