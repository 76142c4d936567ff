import type { ReactNode } from 'react';

/** The rows a list shows while its first page loads: grey bars in the table's shape, announced as loading. */
export function TableSkeleton({ columns = 5, rows = 6, label = 'Loading…' }: { columns?: number; rows?: number; label?: string }) {
  return (
    <div className="table-skeleton" role="status">
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true">
        {Array.from({ length: rows }, (_, row) => (
          <div key={row} className="skeleton-row">
            {Array.from({ length: columns }, (_, column) => (
              <span key={column} className="skeleton-bar" />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

/** A filter in force, as the empty state names it: "Status: Inactive". */
export interface ActiveFilter {
  label: string;
  value: string;
}

/**
 * An empty list says why: with filters in force, which ones (and offers to clear them); without any, `whenUnfiltered`
 * (nothing assigned yet, say).
 */
export function EmptyState({
  noun,
  filters,
  onClearFilters,
  whenUnfiltered,
}: {
  noun: string;
  filters: readonly ActiveFilter[];
  onClearFilters: () => void;
  whenUnfiltered: ReactNode;
}) {
  if (filters.length === 0) return <div className="empty-state">{whenUnfiltered}</div>;
  return (
    <div className="empty-state">
      <p>
        No {noun} match{' '}
        {filters.map((filter, index) => (
          <span key={filter.label}>
            {index > 0 && (index === filters.length - 1 ? ' and ' : ', ')}
            <strong>
              {filter.label}: {filter.value}
            </strong>
          </span>
        ))}
        .
      </p>
      <button type="button" className="button" onClick={onClearFilters}>
        Clear filters
      </button>
    </div>
  );
}

/**
 * A list or panel that could not load says so where it would have been, with the server's message and, when a retry
 * can help (`isRetryableStatus` in load-failure-kind.ts), a Retry.
 */
export function LoadError({
  title = 'Could not load this list',
  message,
  hint,
  onRetry,
}: {
  title?: string;
  message: string;
  hint?: ReactNode;
  onRetry?: (() => void) | undefined;
}) {
  return (
    <div className="load-error" role="alert">
      <p className="load-error-title">{title}</p>
      <p>{message || 'The server did not answer.'}</p>
      {hint && <p>{hint}</p>}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
