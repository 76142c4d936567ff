import { useEffect, useState } from 'react';
import { messageOf } from '../../../../api/error-data';
import type { ApiClient } from '../../../../api/client';
import { getCopy, getCopyCounts, getCopySample } from '../../../../api/database-copy';
import type { CopyOptions, CopySample, CopyTableName, DatabaseCopy } from '../../../../contract/database-copy';
import { formatCount } from '../../../../ui/format';
import { FormProblem } from '../../../../ui/form-problem';
import { JobProgress, usePolledJob } from '../../../../ui/job-progress';

const STATUS_LABELS = {
  waiting: 'Waiting',
  copying: 'Copying',
  done: 'Done',
  failed: 'Failed',
  rolled_back: 'Rolled back',
} as const;

const isRunning = (copy: DatabaseCopy) => copy.status === 'running';

/** Rows per table at both ends once the copy is done: what shows the copy is complete. */
function useEndCounts(api: ApiClient, copy: DatabaseCopy | null) {
  const [counts, setCounts] = useState<{ source: Record<string, number>; target: Record<string, number> } | null>(null);
  const done = copy?.status === 'done';
  useEffect(() => {
    if (!done || !copy) return;
    const controller = new AbortController();
    const options = { signal: controller.signal };
    Promise.all([getCopyCounts(api, copy.source, options), getCopyCounts(api, copy.target, options)]).then(
      ([source, target]) => setCounts({ source: source.counts, target: target.counts }),
      () => undefined,
    );
    return () => controller.abort();
  }, [api, done, copy?.source, copy?.target]);
  return counts;
}

interface CopyProgressProps {
  api: ApiClient;
  copyId: number;
  choices: CopyOptions;
  onFinished: () => void;
}

export function CopyProgress({ api, copyId, choices, onFinished }: CopyProgressProps) {
  // The server keeps the copy, so a reload finds it again.
  const progress = usePolledJob(getCopy, isRunning, api, copyId, onFinished);
  const copy = progress.job;
  const counts = useEndCounts(api, copy);
  const [sample, setSample] = useState<CopySample | null>(null);
  const [sampleError, setSampleError] = useState<string | null>(null);

  const labelOf = (name: CopyTableName) => choices.tables.find((table) => table.name === name)?.label ?? name;
  const maskedTable = copy?.tables.find(
    (t) => (choices.tables.find((table) => table.name === t.table)?.masked_columns.length ?? 0) > 0,
  )?.table;
  const showSample = async () => {
    if (!copy || !maskedTable) return;
    try {
      setSample(await getCopySample(api, copy.target, maskedTable));
      setSampleError(null);
    } catch (failure) {
      setSampleError(messageOf(failure));
    }
  };

  return (
    <JobProgress
      title={`Copy ${copyId}${copy ? `: ${copy.source} → ${copy.target}` : ''}`}
      noun="the copy"
      progress={progress}
    >
      {(copy) => (
        <>
          <p role="status" data-testid="copy-status">
            {copy.status === 'running' && 'Copying…'}
            {copy.status === 'done' && `Done: ${formatCount(copy.rows_copied)} rows copied${copy.masked ? ', personal data masked' : ''}.`}
            {copy.status === 'failed' && `Failed: ${copy.error ?? 'unknown error'}`}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Progress per table">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Table</th>
                  <th scope="col">Rows copied</th>
                  <th scope="col">Progress</th>
                  <th scope="col">Status</th>
                  {counts && <th scope="col">Rows in {copy.source} / {copy.target} now</th>}
                </tr>
              </thead>
              <tbody>
                {copy.tables.map((table) => (
                  <tr key={table.table} data-testid={`progress-${table.table}`}>
                    <td>{labelOf(table.table)}</td>
                    <td>
                      {formatCount(table.rows)} of {formatCount(table.total)}
                    </td>
                    <td>
                      <progress
                        max={Math.max(table.total, 1)}
                        value={table.status === 'done' ? Math.max(table.total, 1) : Math.min(table.rows, table.total)}
                        aria-label={`${labelOf(table.table)} progress`}
                      />
                    </td>
                    <td>{STATUS_LABELS[table.status]}</td>
                    {counts && (
                      <td data-testid={`end-counts-${table.table}`}>
                        {formatCount(counts.source[table.table] ?? 0)} / {formatCount(counts.target[table.table] ?? 0)}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {copy.status === 'done' && maskedTable && (
            <div className="form-actions">
              <button type="button" className="button" onClick={() => void showSample()}>
                Show the first rows of {labelOf(maskedTable)} on {copy.target}
              </button>
            </div>
          )}
          <FormProblem message={sampleError} />
          {sample && (
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`Sample of ${sample.table} on ${sample.database}`}>
              <table className="data-table" data-testid="copy-sample">
                <caption className="muted">
                  {labelOf(sample.table)} on {sample.database}: key and personal-data columns
                </caption>
                <thead>
                  <tr>
                    {sample.columns.map((column) => (
                      <th key={column} scope="col">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {sample.rows.map((row, index) => (
                    <tr key={index}>
                      {row.map((value, column) => (
                        <td key={column}>{value ?? '—'}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </JobProgress>
  );
}
