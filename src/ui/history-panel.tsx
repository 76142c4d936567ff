import { useId } from 'react';
import type { AuditEntry } from '../contract/lists';
import { DateTime } from './date-time';
import { actionText, fieldNameText, historyValueText, impliedFieldType, type HistoryFieldTypes } from './history-values';

export interface HistoryPanelProps {
  entries: readonly AuditEntry[];
  /** Times (of entries, and instant values) are shown in the record's location's zone, or the viewer's. */
  timeZone: string;
  /** Field names as the screen labels them ("capacity" → "Spaces"); others read as words ("transaction_id" → "Transaction"). */
  fieldLabels?: Readonly<Record<string, string>>;
  /** Each field's type from the section's contract, which says how its values read ("money": 1200 → "$12.00"). */
  fieldTypes?: HistoryFieldTypes;
  /** A location's name by id, for 'location' and 'locations' fields. */
  locationName?: (id: number) => string | undefined;
}

/** A record's audit trail, newest first: who, when, what they did, and each field's value before → after. */
export function HistoryPanel({ entries, timeZone, fieldLabels = {}, fieldTypes = {}, locationName }: HistoryPanelProps) {
  const titleId = useId();
  const show = (field: string, value: unknown) => historyValueText(value, fieldTypes[field] ?? impliedFieldType(field), { timeZone, locationName });
  return (
    <section className="history-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>History</h2>
      {entries.length === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <ol className="history-entries">
          {entries.map((entry) => (
            <li key={entry.audit_id} className="history-entry">
              <p className="history-head">
                <strong>{actionText(entry.action)}</strong> by{' '}
                {entry.actor ? (entry.actor.name ?? entry.actor.email) : 'the system'}
                {entry.actor?.name && <span className="muted"> ({entry.actor.email})</span>} ·{' '}
                <DateTime iso={entry.at} timeZone={timeZone} />
              </p>
              {entry.changes.length > 0 && (
                <ul className="history-changes">
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      <span className="history-field">{fieldLabels[change.field] ?? fieldNameText(change.field)}</span>:{' '}
                      <del>{show(change.field, change.before)}</del>
                      <span aria-hidden="true"> → </span>
                      <span className="visually-hidden"> changed to </span>
                      <ins>{show(change.field, change.after)}</ins>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
