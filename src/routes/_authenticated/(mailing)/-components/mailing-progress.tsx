import type { ApiClient } from '../../../../api/client';
import { getMailing } from '../../../../api/mailing';
import type { Mailing } from '../../../../contract/mailing';
import { formatCount } from '../../../../ui/format';
import { JobProgress, usePolledJob } from '../../../../ui/job-progress';

export const MAILING_STATE_LABELS = { queued: 'Queued', sending: 'Sending', done: 'Done' } as const;

const isRunning = (mailing: Mailing) => mailing.state !== 'done';

/** The mailing's counts as the server keeps them (so a reload finds them again), polled until it is done. */
export function MailingProgress({ api, mailingId, onFinished }: { api: ApiClient; mailingId: number; onFinished: () => void }) {
  const progress = usePolledJob(getMailing, isRunning, api, mailingId, onFinished);
  return (
    <JobProgress title={`Mailing ${mailingId}`} noun="the mailing" progress={progress} className="mailing-progress">
      {(mailing) => (
        <>
          <p>
            “{mailing.subject}” to {mailing.segment_label}
          </p>
          <progress
            max={Math.max(1, mailing.recipient_count)}
            value={mailing.recipient_count - mailing.left}
            aria-label="Mailing progress"
          />
          <dl className="mailing-counts" aria-live="polite">
            <dt>State</dt>
            <dd data-testid="mailing-state">{MAILING_STATE_LABELS[mailing.state]}</dd>
            <dt>Sent</dt>
            <dd data-testid="mailing-sent">{formatCount(mailing.sent)}</dd>
            <dt>Failed</dt>
            <dd data-testid="mailing-failed">{formatCount(mailing.failed)}</dd>
            <dt>Left</dt>
            <dd data-testid="mailing-left">{formatCount(mailing.left)}</dd>
            {mailing.skipped > 0 && (
              <>
                <dt>Skipped (opted out since)</dt>
                <dd>{formatCount(mailing.skipped)}</dd>
              </>
            )}
          </dl>
        </>
      )}
    </JobProgress>
  );
}
