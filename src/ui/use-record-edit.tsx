import { useState } from 'react';
import { ConflictNotice, useVersionConflict } from './conflict-notice';

/**
 * An edit screen's hold on the record its form edits (docs/sections.md "Forms"): while the form holds unsaved
 * changes it keeps the version they were made on (`base`), whatever reloads meanwhile; a save that meets a newer
 * version (409) is said by `notice`, whose "Reload their version" loads the record again and lets go of the old one.
 * `formProps` go to the section form; `saved()` ends a conflict once a save went through.
 */
export function useRecordEdit<T extends { version: number }>(record: T, reload: () => Promise<void>) {
  const [pinned, setPinned] = useState<T | null>(null);
  const { conflict, setConflict, onSaveFailed } = useVersionConflict();
  const reloadTheirs = async () => {
    await reload();
    setConflict(null);
    setPinned(null);
  };
  return {
    base: pinned ?? record,
    conflict,
    saved: () => setConflict(null),
    formProps: {
      onChangedChange: (changed: boolean) => setPinned((previous) => (changed ? (previous ?? record) : null)),
      onSaveFailed,
    },
    /** The conflict in words, naming the record as `what` and its time on `timeZone`; nothing without one. */
    notice: (what: string, timeZone: string) =>
      conflict && <ConflictNotice conflict={conflict} what={what} timeZone={timeZone} onReload={reloadTheirs} />,
  };
}
