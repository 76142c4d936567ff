import type { DatabaseCopy } from '../../../../contract/database-copy';
import { DateTime } from '../../../../ui/date-time';
import { formatCount } from '../../../../ui/format';
import { viewerTimeZone } from '../../../../ui/zoned-time';

const OUTCOMES = { running: 'Running', done: 'Done', failed: 'Failed' } as const;

/** Every copy recorded (the last 50): who, when, what, rows, outcome. */
export function CopyHistory({
  copies,
  shownCopyId,
  onShow,
}: {
  copies: readonly DatabaseCopy[];
  shownCopyId: number | null;
  onShow: (copyId: number) => void;
}) {
  // Copies belong to no one location: their times are on the viewer's own clock, with its zone.
  const zone = viewerTimeZone();
  return (
    <section aria-labelledby="copy-history-title">
      <h2 id="copy-history-title">History</h2>
      {copies.length === 0 ? (
        <div className="empty-state">No copy yet.</div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Copies">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Copy</th>
                <th scope="col">Started</th>
                <th scope="col">By</th>
                <th scope="col">From → to</th>
                <th scope="col">Tables</th>
                <th scope="col">Rows</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {copies.map((copy) => (
                <tr key={copy.copy_id} aria-current={copy.copy_id === shownCopyId || undefined}>
                  <td>
                    <button type="button" className="link-button" onClick={() => onShow(copy.copy_id)}>
                      Copy {copy.copy_id}
                    </button>
                  </td>
                  <td>
                    <DateTime iso={copy.started_at} timeZone={zone} />
                  </td>
                  <td>{copy.started_by_email}</td>
                  <td>
                    {copy.source} → {copy.target}
                    {copy.masked ? ' (masked)' : ''}
                  </td>
                  <td>{copy.tables.map((table) => table.table).join(', ')}</td>
                  <td>{formatCount(copy.rows_copied)}</td>
                  <td title={copy.error ?? undefined}>
                    {OUTCOMES[copy.status]}
                    {copy.error ? `: ${copy.error}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
