import { memo, useEffect, useId, useRef } from 'react';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { SEARCH_PAGE_SIZE, type CategoryResult, type SearchCategory } from '../../../../worker/enforcement-worker-api';
import { PlateRowCard } from './plate-rows';

export const CATEGORY_LABELS: Record<SearchCategory, string> = {
  valid: 'Valid',
  expired: 'Expired',
  spothero: 'SpotHero',
  parkwhiz: 'ParkWhiz',
  monthly_parkers: 'Monthly parkers',
};

interface Props {
  category: SearchCategory;
  result: CategoryResult;
  /** Rows to render now (the rest follow in a transition, see search-results.tsx). */
  rowLimit: number;
  locations: ReadonlyMap<number, LocationRef>;
  query: string;
  now: number;
  onPage: (category: SearchCategory, page: number) => void;
}

/** One category of results: its total, ten rows, and previous/next. */
export const CategoryResults = memo(function CategoryResults({ category, result, rowLimit, locations, query, now, onPage }: Props) {
  const headingId = useId();
  const pages = Math.max(1, Math.ceil(result.total / SEARCH_PAGE_SIZE));
  const label = CATEGORY_LABELS[category];
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Set by Previous/Next: once the new page is here, the category's first row comes into view (not the bottom of a
  // page ~2,000 px further down), and focus moves to its heading so a keyboard or screen-reader user follows.
  const pagedFrom = useRef<number | null>(null);
  useEffect(() => {
    if (pagedFrom.current === null || pagedFrom.current === result.page) return;
    pagedFrom.current = null;
    headingRef.current?.focus({ preventScroll: true });
    // jsdom (component tests) has no scrollIntoView.
    sectionRef.current?.scrollIntoView?.({ block: 'start' });
  }, [result.page]);
  const page = (next: number) => {
    pagedFrom.current = result.page;
    onPage(category, next);
  };
  return (
    <section ref={sectionRef} className={`category category-${category}`} aria-labelledby={headingId}>
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {label} <span className="category-total">({result.total.toLocaleString('en-US')})</span>
      </h2>
      {rowLimit > 0 && result.rows.length > 0 && (
        <ol className="plate-rows">
          {result.rows.slice(0, rowLimit).map((row) => (
            <PlateRowCard
              key={`${row.category}-${'transaction_id' in row ? row.transaction_id : row.id}`}
              row={row}
              location={locations.get(row.location_id)}
              query={query}
              now={now}
            />
          ))}
        </ol>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label={`${label} pages`}>
          <button
            type="button"
            className="button"
            disabled={result.page === 0}
            onClick={() => page(result.page - 1)}
          >
            Previous
          </button>
          <span>
            Page {result.page + 1} of {pages}
          </span>
          <button
            type="button"
            className="button"
            disabled={result.page >= pages - 1}
            onClick={() => page(result.page + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
});
