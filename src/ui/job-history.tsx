import { useId } from 'react';
import { DateTime } from './date-time';
import { PlainTable, type PlainColumn } from './plain-table';
import { ScrollRegion } from './scroll-region';
import { viewerTimeZone } from './zoned-time';

/** How a kind of job's history reads: what a run is called, its id, the button that shows it, its other columns. */
export interface JobKind<Job> {
  /** "copy", "copies": the table is "Copies", an empty history says "No copy yet." */
  noun: { one: string; other: string };
  idOf: (job: Job) => number;
  /** The first column: its header and the run's name on the button that shows its progress. */
  opener: { header: string; name: (job: Job) => string };
  columns: readonly PlainColumn<Job>[];
}

/**
 * The runs of a superuser's job (database copies, mailings) as the server keeps them: one row each, newest first; the
 * first column's button shows that run's progress above, and the row shown is marked `aria-current`.
 */
export function JobHistory<Job>({
  kind,
  jobs,
  shownId,
  onShow,
}: {
  kind: JobKind<Job>;
  jobs: readonly Job[];
  shownId: number | null;
  onShow: (id: number) => void;
}) {
  const titleId = useId();
  const opener: PlainColumn<Job> = {
    header: kind.opener.header,
    cell: (job) => (
      <button type="button" className="link-button" onClick={() => onShow(kind.idOf(job))}>
        {kind.opener.name(job)}
      </button>
    ),
  };
  const label = kind.noun.other.charAt(0).toUpperCase() + kind.noun.other.slice(1);
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>History</h2>
      {jobs.length === 0 ? (
        <div className="empty-state">No {kind.noun.one} yet.</div>
      ) : (
        <ScrollRegion label={label}>
          <PlainTable
            columns={[opener, ...kind.columns]}
            rows={jobs}
            rowKey={kind.idOf}
            rowAttributes={(job) => ({ 'aria-current': kind.idOf(job) === shownId || undefined })}
          />
        </ScrollRegion>
      )}
    </section>
  );
}

/** A run's time: runs belong to no one location, so it is on the viewer's own clock, with its zone. */
export function jobTimeColumn<Job>(header: string, isoOf: (job: Job) => string): PlainColumn<Job> {
  return { header, cell: (job) => <DateTime iso={isoOf(job)} timeZone={viewerTimeZone()} /> };
}
