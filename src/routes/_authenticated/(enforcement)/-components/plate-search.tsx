import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { LocationRef } from '../../../../permissions/permissions-object';
import type {
  PlateSearchRequest,
  PlateSearchResult,
  SearchAheadAnswers,
  SearchAheadRequest,
  SearchCategory,
} from '../../../../worker/enforcement-worker-api';
import { whenBrowserIdle } from '../../../../ui/idle-import';
import { sortedByName } from '../../../../ui/location-names';
import { symbolsByLikelihood } from '../../../../worker/first-paint';
import { READ_AHEAD_IDLE_WAIT_MS, READ_AHEAD_MIN_BUDGET_MS, ReadAheadAnswers, TypingPace } from './read-ahead';
import { FIRST_PAINT_ROWS, SearchResults, type SearchAnswer } from './search-results';
import type { Verdict } from './verdict';

export interface PlateSearchProps {
  search: (request: PlateSearchRequest) => Promise<PlateSearchResult>;
  /**
   * The worker's read-ahead: after each answer, the answers for one more character, so that the next keystroke
   * paints its verdict with the character itself (read-ahead.ts). Absent: every keystroke waits for the worker.
   */
  searchAhead?: (request: SearchAheadRequest) => Promise<SearchAheadAnswers | null>;
  /** Changes whenever the store may have changed (a sync round, a purge): answers read ahead are dropped. */
  storeVersion?: unknown;
  locations: readonly LocationRef[];
  /** False while a fresh sync fills the store, or when there is no store: results would be incomplete. */
  ready: boolean;
  /** When the store was last brought up to date (epoch ms), for the empty result. */
  lastSyncedAt: number | null;
  now?: () => number;
  /** Under the verdict (Write citation), told the plate as typed and the location chosen. */
  verdictAction?: (verdict: Verdict, plate: string, locationId: number | undefined) => ReactNode;
  /** Rows rendered with an answer's first paint (default FIRST_PAINT_ROWS; bench:screen compares other values). */
  firstPaintRows?: number;
  /** Beside the field (Scan), told the plate as it stands and how to fill the field as if typed. */
  plateTool?: (plate: string, fill: (plate: string) => void) => ReactNode;
}

type Pages = Partial<Record<SearchCategory, number>>;
const FIRST_PAGES: Pages = {};

/**
 * The officer's plate search: a large "License plate" field that upper-cases as you type, a location choice and the
 * similar-characters toggle; results come from the worker on every keystroke, grouped by category.
 */
export function PlateSearch({
  search,
  searchAhead,
  storeVersion,
  locations,
  ready,
  lastSyncedAt,
  now = Date.now,
  firstPaintRows = FIRST_PAINT_ROWS,
  verdictAction,
  plateTool,
}: PlateSearchProps) {
  const inputId = useId();
  const locationId = useId();
  const [query, setQuery] = useState('');
  const [location, setLocation] = useState<number | undefined>(undefined);
  const [similar, setSimilar] = useState(true);
  const [pages, setPages] = useState<Pages>(FIRST_PAGES);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const field = useRef<HTMLInputElement>(null);
  const [readAhead] = useState(() => new ReadAheadAnswers());
  const [pace] = useState(() => new TypingPace());
  const byId = useMemo(() => new Map(locations.map((l) => [l.location_id, l])), [locations]);
  // The permissions list them by id; the choice is by name.
  const choices = useMemo(() => sortedByName(locations), [locations]);
  const text = query.trim();

  useEffect(() => readAhead.clear(), [readAhead, storeVersion, ready]);

  useEffect(() => {
    if (!ready || !text) return;
    const ticket = ++latest.current;
    const at = now();
    const generation = readAhead.generation;
    search({ text, locationId: location, now: at, pages, similar }).then(
      (result) => {
        if (ticket !== latest.current) return;
        const fresh: SearchAnswer = { query: text, result, at };
        // Rendered in the task that received the answer: a scheduled render would be one more task, often one more
        // frame, between the worker's answer and the officer seeing it.
        flushSync(() => {
          setAnswer(fresh);
          setError(null);
        });
        if (pages !== FIRST_PAGES || searchAhead === undefined) return;
        const scope = { locationId: location, similar };
        readAhead.remember(fresh, scope, generation);
        // Once the page is idle (the rest of the rows painted): on a phone whose page and worker share a core, a
        // read-ahead beside that rendering slowed both; with no idle time before the next key, none is asked.
        whenBrowserIdle(
          () => {
            const budgetMs = pace.budgetMs(performance.now());
            if (ticket !== latest.current || budgetMs < READ_AHEAD_MIN_BUDGET_MS) return;
            const symbols = symbolsByLikelihood(text, result);
            searchAhead({ text, locationId: location, now: at, similar, firstPaintRows, symbols, budgetMs }).then(
              (answers) => readAhead.rememberAhead(text, answers, scope, at, generation),
              () => undefined, // a head start only: the keystroke's own search reports failures
            );
          },
          READ_AHEAD_IDLE_WAIT_MS,
          0,
        );
      },
      (reason: unknown) => {
        if (ticket === latest.current) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  }, [search, searchAhead, readAhead, pace, firstPaintRows, text, location, similar, pages, ready, now]);

  // A plate read by the camera goes in as if typed, and the field keeps the focus for a correction by hand.
  const fill = useCallback((plate: string) => {
    setQuery(plate.toUpperCase());
    setPages(FIRST_PAGES);
    field.current?.focus();
  }, []);
  const onPage = useCallback((category: SearchCategory, page: number) => setPages((current) => ({ ...current, [category]: page })), []);
  const onEnableSimilar = useCallback(() => {
    setSimilar(true);
    setPages(FIRST_PAGES);
  }, []);
  // Kept from keystroke to keystroke, so that the memoised results do not render again for it.
  const action = useMemo(
    () => verdictAction && ((verdict: Verdict, plate: string) => verdictAction(verdict, plate, location)),
    [verdictAction, location],
  );
  // The previous answer stays until the next arrives, so a keystroke never paints an empty results area first.
  const shown = ready && text && answer ? answer : null;

  return (
    <div className="plate-search">
      <div className="plate-search-controls">
        <label htmlFor={inputId} className="plate-label">
          License plate
        </label>
        <div className="plate-input-row">
          <input
            ref={field}
            id={inputId}
            className="plate-input"
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            inputMode="text"
            value={query}
            onChange={(event) => {
              const typed = event.target.value.toUpperCase();
              pace.keystroke(performance.now());
              setQuery(typed);
              setPages(FIRST_PAGES);
              // Painted with the typed character, in this event's render: no frame of the previous text's verdict.
              const ahead = ready ? readAhead.get(typed.trim(), { locationId: location, similar }, now()) : undefined;
              if (ahead !== undefined) setAnswer(ahead);
            }}
          />
          {plateTool?.(query, fill)}
        </div>
        <div className="plate-search-options">
          <label htmlFor={locationId} className="visually-hidden">
            Location
          </label>
          <select
            id={locationId}
            value={location ?? ''}
            onChange={(event) => {
              setLocation(event.target.value ? Number(event.target.value) : undefined);
              setPages(FIRST_PAGES);
            }}
          >
            <option value="">All my locations</option>
            {choices.map((l) => (
              <option key={l.location_id} value={l.location_id}>
                {l.name}
              </option>
            ))}
          </select>
          <label className="toggle" title="Also finds plates read with O/0, I/1, S/5, B/8, Z/2 or G/6 swapped">
            <input
              type="checkbox"
              checked={similar}
              onChange={(event) => {
                setSimilar(event.target.checked);
                setPages(FIRST_PAGES);
              }}
            />
            Similar characters
          </label>
        </div>
      </div>
      <SearchResults
        answer={shown}
        hasText={text !== ''}
        ready={ready}
        error={error}
        locations={byId}
        lastSyncedAt={lastSyncedAt}
        now={now}
        onPage={onPage}
        firstPaintRows={firstPaintRows}
        similar={similar}
        onEnableSimilar={onEnableSimilar}
        verdictAction={action}
      />
    </div>
  );
}
