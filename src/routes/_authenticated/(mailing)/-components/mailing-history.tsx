import type { Mailing } from '../../../../contract/mailing';
import { DateTime } from '../../../../ui/date-time';
import { formatCount } from '../../../../ui/format';
import { viewerTimeZone } from '../../../../ui/zoned-time';
import { MAILING_STATE_LABELS } from './mailing-progress';

/** The last 25 mailings with their counts; a row's button shows its progress above. */
export function MailingHistory({
  mailings,
  shownId,
  onShow,
}: {
  mailings: readonly Mailing[];
  shownId: number | null;
  onShow: (mailingId: number) => void;
}) {
  // Mailings belong to no one location: their times are on the viewer's own clock, with its zone.
  const zone = viewerTimeZone();
  return (
    <section aria-labelledby="mailing-history-title">
      <h2 id="mailing-history-title">History</h2>
      {mailings.length === 0 ? (
        <div className="empty-state">No mailing yet.</div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Mailings">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Recipients</th>
                <th scope="col">Queued</th>
                <th scope="col">By</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
                <th scope="col">Left</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {mailings.map((mailing) => (
                <tr key={mailing.mailing_id} aria-current={mailing.mailing_id === shownId || undefined}>
                  <td>
                    <button type="button" className="link-button" onClick={() => onShow(mailing.mailing_id)}>
                      {mailing.subject}
                    </button>
                  </td>
                  <td>
                    {formatCount(mailing.recipient_count)}: {mailing.segment_label}
                  </td>
                  <td>
                    <DateTime iso={mailing.created_at} timeZone={zone} />
                  </td>
                  <td>{mailing.created_by_email}</td>
                  <td>{formatCount(mailing.sent)}</td>
                  <td>{formatCount(mailing.failed)}</td>
                  <td>{formatCount(mailing.left)}</td>
                  <td>{MAILING_STATE_LABELS[mailing.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
