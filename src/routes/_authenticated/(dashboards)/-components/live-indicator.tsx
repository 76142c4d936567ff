import type { StreamStatus } from '../../../../api/realtime-stream';

const WORDS: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Not updating: reload the page',
};

/** Whether the figures are following the server: said in words (and a dot), announced politely when it changes. */
export function LiveIndicator({ status }: { status: StreamStatus }) {
  return (
    <p className={`live-indicator live-${status}`} role="status" data-status={status}>
      <span className="live-dot" aria-hidden="true" />
      {WORDS[status]}
    </p>
  );
}
