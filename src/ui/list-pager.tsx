import { useId } from 'react';
import { formatCount } from './format';

export interface ListPagerProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  pageSize: number;
  pageSizes: readonly number[];
  /** Rows matching the filters, counted up to `rowLimit`. */
  total: number;
  /** More rows match than `total` says: shown as "10,000+". */
  totalIsLowerBound: boolean;
  /** What a row is, for "1,234 locations". */
  noun: { one: string; other: string };
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/**
 * Under a list: where you are (rows 26–50 of 1,234; page 2 of 50), the way to the other pages, and how many rows a
 * page shows. When the count stopped at the row limit, the last reachable page says to narrow the search or export.
 */
export function ListPager(props: ListPagerProps) {
  const { page, pageCount, pageSize, total, totalIsLowerBound, noun } = props;
  const sizeId = useId();
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const lastPage = Math.max(1, pageCount);
  const totalText = `${formatCount(total, totalIsLowerBound)} ${total === 1 && !totalIsLowerBound ? noun.one : noun.other}`;
  return (
    <nav className="list-pager" aria-label="Pages">
      <p className="list-pager-status" aria-live="polite">
        {total === 0 ? (
          totalText
        ) : (
          <>
            {formatCount(first)}–{formatCount(last)} of {totalText} · Page {formatCount(page)} of{' '}
            {formatCount(lastPage)}
            {totalIsLowerBound ? '+' : ''}
          </>
        )}
      </p>
      <div className="list-pager-controls">
        <button type="button" className="button" disabled={page <= 1} onClick={() => props.onPageChange(1)}>
          First
        </button>
        <button type="button" className="button" disabled={page <= 1} onClick={() => props.onPageChange(page - 1)}>
          Previous
        </button>
        <button
          type="button"
          className="button"
          disabled={page >= lastPage}
          onClick={() => props.onPageChange(page + 1)}
        >
          Next
        </button>
        <label htmlFor={sizeId} className="list-pager-size">
          Rows per page
        </label>
        <select
          id={sizeId}
          className="select"
          value={pageSize}
          onChange={(event) => props.onPageSizeChange(Number(event.target.value))}
        >
          {props.pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      {totalIsLowerBound && page >= lastPage && (
        <p className="list-pager-limit">
          Only the first {formatCount(total)} {noun.other} can be paged through: narrow the search or export CSV for
          every row.
        </p>
      )}
    </nav>
  );
}
