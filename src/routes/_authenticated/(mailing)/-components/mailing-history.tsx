import type { Mailing } from '../../../../contract/mailing';
import { formatCount } from '../../../../ui/format';
import { jobTimeColumn, type JobKind } from '../../../../ui/job-history';
import { MAILING_STATE_LABELS } from './mailing-progress';

/** The last 25 mailings with their counts, as `JobHistory` lists them; a row's button shows its progress above. */
export const MAILING_HISTORY: JobKind<Mailing> = {
  noun: { one: 'mailing', other: 'mailings' },
  idOf: (mailing) => mailing.mailing_id,
  opener: { header: 'Subject', name: (mailing) => mailing.subject },
  columns: [
    { header: 'Recipients', cell: (mailing) => `${formatCount(mailing.recipient_count)}: ${mailing.segment_label}` },
    jobTimeColumn('Queued', (mailing) => mailing.created_at),
    { header: 'By', cell: (mailing) => mailing.created_by_email },
    { header: 'Sent', cell: (mailing) => formatCount(mailing.sent) },
    { header: 'Failed', cell: (mailing) => formatCount(mailing.failed) },
    { header: 'Left', cell: (mailing) => formatCount(mailing.left) },
    { header: 'State', cell: (mailing) => MAILING_STATE_LABELS[mailing.state] },
  ],
};
