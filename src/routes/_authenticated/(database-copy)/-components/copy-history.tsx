import type { DatabaseCopy } from '../../../../contract/database-copy';
import { formatCount } from '../../../../ui/format';
import { jobTimeColumn, type JobKind } from '../../../../ui/job-history';

const OUTCOMES = { running: 'Running', done: 'Done', failed: 'Failed' } as const;

/** Every copy recorded (the last 50), as `JobHistory` lists them: who, when, what, rows, outcome. */
export const COPY_HISTORY: JobKind<DatabaseCopy> = {
  noun: { one: 'copy', other: 'copies' },
  idOf: (copy) => copy.copy_id,
  opener: { header: 'Copy', name: (copy) => `Copy ${copy.copy_id}` },
  columns: [
    jobTimeColumn('Started', (copy) => copy.started_at),
    { header: 'By', cell: (copy) => copy.started_by_email },
    { header: 'From → to', cell: (copy) => `${copy.source} → ${copy.target}${copy.masked ? ' (masked)' : ''}` },
    { header: 'Tables', cell: (copy) => copy.tables.map((table) => table.table).join(', ') },
    { header: 'Rows', cell: (copy) => formatCount(copy.rows_copied) },
    { header: 'Outcome', cell: (copy) => <span title={copy.error ?? undefined}>{OUTCOMES[copy.status]}{copy.error ? `: ${copy.error}` : ''}</span> },
  ],
};
