import { memo, startTransition, useEffect, useState, type ReactNode } from 'react';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { SEARCH_CATEGORIES, type PlateSearchResult, type SearchCategory } from '../../../../worker/enforcement-worker-api';
import { firstPaintLimits } from '../../../../worker/first-paint';
import { CategoryResults } from './category-results';
import { describeSyncAge } from './enforcement-format';
import { verdictFor, type Verdict } from './verdict';
import { VerdictLine } from './verdict-line';

/**
 * Rows rendered with an answer's first paint: what a phone shows below the field (rows are ~9rem). The rest (up to 10
 * per category) follow in a transition that a next keystroke interrupts: rendering all 50 rows of a short query before
 * painting cost ~4× the budget of a keystroke on a 4×-throttled page, and 3 rows painted sooner than 6 in every run
 * (bench:screen, BENCHMARKS.md).
 */
export const FIRST_PAINT_ROWS = 3;

export interface SearchAnswer {
  /** The text searched, as typed (upper case, trimmed). */
  query: string;
  result: PlateSearchResult;
  /** "Now" the answer was computed for (epoch ms): expiry ages are relative to it. */
  at: number;
  /**
   * Read ahead: only what the first paint shows and the verdict reads (`firstPaintSlice`); never rendered past its
   * first paint, the worker's whole answer follows.
   */
  partial?: boolean;
}

interface Props {
  /** The answer to show; null while there is none for the current text. */
  answer: SearchAnswer | null;
  hasText: boolean;
  ready: boolean;
  error: string | null;
  locations: ReadonlyMap<number, LocationRef>;
  lastSyncedAt: number | null;
  now: () => number;
  onPage: (category: SearchCategory, page: number) => void;
  firstPaintRows?: number | undefined;
  /** Whether similar characters were on for this answer (the "no record" verdict offers to turn them on). */
  similar: boolean;
  onEnableSimilar: () => void;
  /** Under the verdict: what the officer may do about it (Write citation). */
  verdictAction?: ((verdict: Verdict, plate: string) => ReactNode) | undefined;
}

/**
 * The results region. Memoized: a keystroke re-renders the field only; this re-renders when the answer for the new
 * text arrives (the previous answer stays on screen until then, so no frame shows an empty region).
 */
export const SearchResults = memo(function SearchResults({
  answer,
  hasText,
  ready,
  error,
  locations,
  lastSyncedAt,
  now,
  onPage,
  firstPaintRows = FIRST_PAINT_ROWS,
  similar,
  onEnableSimilar,
  verdictAction,
}: Props) {
  const [complete, setComplete] = useState<SearchAnswer | null>(null);
  useEffect(() => {
    if (answer === null || answer === complete || answer.partial) return;
    // Only once the first rows are painted: started at once, the transition's work would delay that frame.
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => startTransition(() => setComplete(answer)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [answer, complete]);

  const nothingFound = answer !== null && SEARCH_CATEGORIES.every((c) => answer.result[c].total === 0);
  const limits = answer === null ? null : firstPaintLimits(answer.result, answer === complete ? Infinity : firstPaintRows);
  const verdict =
    answer === null
      ? null
      : verdictFor({
          query: answer.query,
          result: answer.result,
          now: answer.at,
          similar,
          locations,
          dataAge: `Data ${describeSyncAge(lastSyncedAt, now())}.`,
        });
  // Only the verdict line is a live region: the cards below would be read out ~50 at a time on every keystroke.
  return (
    <div className="plate-search-results" data-answer-for={answer?.query}>
      {error && (
        <p role="alert" className="form-error">
          Search failed: {error}
        </p>
      )}
      <VerdictLine verdict={verdict} onEnableSimilar={onEnableSimilar} />
      {verdict && answer && verdictAction?.(verdict, answer.query)}
      {!hasText && ready && <p className="muted">Type part of a plate, as you read it.</p>}
      {answer !== null &&
        limits !== null &&
        !nothingFound &&
        SEARCH_CATEGORIES.map((category) => (
          <CategoryResults
            key={category}
            category={category}
            result={answer.result[category]}
            rowLimit={limits[category]}
            locations={locations}
            query={answer.query}
            now={answer.at}
            onPage={onPage}
          />
        ))}
    </div>
  );
});
