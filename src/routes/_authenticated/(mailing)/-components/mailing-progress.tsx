import { useEffect, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { messageOf } from '../../../../api/error-data';
import { getMailing } from '../../../../api/mailing';
import type { Mailing } from '../../../../contract/mailing';
import { formatCount } from '../../../../ui/format';

const POLL_MS = 1000;
export const MAILING_STATE_LABELS = { queued: 'Queued', sending: 'Sending', done: 'Done' } as const;

/** Polls the mailing every second until it is done; the counts are the server's, so a reload finds them again. */
function useMailing(api: ApiClient, mailingId: number) {
  const [mailing, setMailing] = useState<Mailing | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      getMailing(api, mailingId, { signal: controller.signal }).then(
        (next) => {
          setMailing(next);
          setError(null);
          if (next.state !== 'done') timer = setTimeout(poll, POLL_MS);
        },
        (failure) => {
          if (controller.signal.aborted) return;
          setError(messageOf(failure));
          timer = setTimeout(poll, POLL_MS * 3);
        },
      );
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, mailingId]);
  return { mailing, error };
}

export function MailingProgress({ api, mailingId, onFinished }: { api: ApiClient; mailingId: number; onFinished: () => void }) {
  const { mailing, error } = useMailing(api, mailingId);
  const done = mailing?.state === 'done';
  useEffect(() => {
    if (done) onFinished();
  }, [done]);
  return (
    <section aria-labelledby="mailing-progress-title" className="mailing-progress">
      <h2 id="mailing-progress-title">Mailing {mailingId}</h2>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {mailing === null ? (
        !error && <p>Loading…</p>
      ) : (
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
    </section>
  );
}
