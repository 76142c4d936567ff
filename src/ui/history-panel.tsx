import { useId } from 'react';
import type { AuditEntry } from '../contract/lists';
import { formatDateTime } from './format';

const ACTIONS: Record<string, string> = {
  create: 'Created',
  update: 'Edited',
  deactivate: 'Deactivated',
  activate: 'Activated',
  delete: 'Deleted',
  refund: 'Refunded',
  invite: 'Invited',
  disable: 'Disabled',
  enable: 'Enabled',
  'claim-identity': 'Signed in for the first time',
};

export interface HistoryPanelProps {
  entries: readonly AuditEntry[];
  /** Times are shown in the record's location's zone. */
  timeZone: string;
  /** Field names as the screen labels them ("capacity" → "Spaces"); others are shown as they are. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** How a field's value reads ("true" → "On"); by default text as it is, nothing as "—". */
  formatValue?: (field: string, value: unknown) => string;
}

function plainValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A record's audit trail, newest first: who, when, what they did, and each field's value before → after. */
export function HistoryPanel({ entries, timeZone, fieldLabels = {}, formatValue }: HistoryPanelProps) {
  const titleId = useId();
  const show = (field: string, value: unknown) => formatValue?.(field, value) ?? plainValue(value);
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
                <strong>{ACTIONS[entry.action] ?? entry.action}</strong> by{' '}
                {entry.actor ? (entry.actor.name ?? entry.actor.email) : 'the system'}
                {entry.actor?.name && <span className="muted"> ({entry.actor.email})</span>} ·{' '}
                <time dateTime={entry.at}>{formatDateTime(entry.at, timeZone)}</time>
              </p>
              {entry.changes.length > 0 && (
                <ul className="history-changes">
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      <span className="history-field">{fieldLabels[change.field] ?? change.field}</span>:{' '}
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
