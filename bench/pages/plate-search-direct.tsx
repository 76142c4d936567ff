import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { SearchCategory } from '../../src/worker/enforcement-worker-api';
import type { PlateSearchProps } from '../../src/routes/-components/enforcement/plate-search';
import { SearchResults, type SearchAnswer } from '../../src/routes/-components/enforcement/search-results';

type Pages = Partial<Record<SearchCategory, number>>;
const FIRST_PAGES: Pages = {};

interface Request {
  text: string;
  location: number | undefined;
  similar: boolean;
  pages: Pages;
}

/**
 * A what-if of bench:screen (`--what-if directSearch`), tried and rejected (BENCHMARKS.md, "Screen", 2026-11-24): the
 * /list PlateSearch with its field outside React state, searched straight from the input handler, so that a keystroke
 * renders nothing in React and the request leaves before the browser's post-input layout. It measured the same as the
 * screen as built (p75 47.3 vs 47.6 ms, 57 vs 59.7 in a more loaded run): React's share of a keystroke is ~1 ms at 4×.
 */
export function PlateSearchDirect({ search, locations, ready, lastSyncedAt, now = Date.now, firstPaintRows }: PlateSearchProps) {
  const inputId = useId();
  const locationId = useId();
  const [location, setLocation] = useState<number | undefined>(undefined);
  const [similar, setSimilar] = useState(true);
  const [hasText, setHasText] = useState(false);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const request = useRef<Request>({ text: '', location: undefined, similar: true, pages: FIRST_PAGES });
  const latest = useRef(0);
  const live = useRef({ search, ready, now });
  live.current = { search, ready, now };
  const byId = useMemo(() => new Map(locations.map((l) => [l.location_id, l])), [locations]);

  const run = useCallback((change: Partial<Request>) => {
    const next = (request.current = { ...request.current, ...change });
    const ticket = ++latest.current;
    const { search, ready, now } = live.current;
    if (!ready || !next.text) return;
    const at = now();
    const { text } = next;
    search({ text, locationId: next.location, now: at, pages: next.pages, similar: next.similar }).then(
      (result) => {
        if (ticket !== latest.current) return;
        flushSync(() => {
          setAnswer({ query: text, result, at });
          setError(null);
        });
      },
      (reason: unknown) => {
        if (ticket === latest.current) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  }, []);

  useEffect(() => run({}), [run, search, ready, now]);

  const onPage = useCallback((category: SearchCategory, page: number) => run({ pages: { ...request.current.pages, [category]: page } }), [run]);
  const onEnableSimilar = useCallback(() => {
    setSimilar(true);
    run({ similar: true, pages: FIRST_PAGES });
  }, [run]);
  const text = request.current.text;
  const shown = ready && hasText && text && answer ? answer : null;

  return (
    <div className="plate-search">
      <div className="plate-search-controls">
        <label htmlFor={inputId} className="plate-label">
          License plate
        </label>
        <input
          id={inputId}
          className="plate-input"
          autoFocus
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          inputMode="text"
          defaultValue=""
          onChange={(event) => {
            const field = event.target;
            const upper = field.value.toUpperCase();
            if (upper !== field.value) {
              const { selectionStart, selectionEnd } = field;
              field.value = upper;
              field.setSelectionRange(selectionStart, selectionEnd);
            }
            const nextText = upper.trim();
            if (nextText === request.current.text) return;
            run({ text: nextText, pages: FIRST_PAGES });
            setHasText(nextText !== '');
          }}
        />
        <div className="plate-search-options">
          <label htmlFor={locationId} className="visually-hidden">
            Location
          </label>
          <select
            id={locationId}
            value={location ?? ''}
            onChange={(event) => {
              const next = event.target.value ? Number(event.target.value) : undefined;
              setLocation(next);
              run({ location: next, pages: FIRST_PAGES });
            }}
          >
            <option value="">All my locations</option>
            {locations.map((l) => (
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
                run({ similar: event.target.checked, pages: FIRST_PAGES });
              }}
            />
            Similar characters
          </label>
        </div>
      </div>
      <SearchResults
        answer={shown}
        hasText={hasText}
        ready={ready}
        error={error}
        locations={byId}
        lastSyncedAt={lastSyncedAt}
        now={now}
        onPage={onPage}
        firstPaintRows={firstPaintRows}
        similar={similar}
        onEnableSimilar={onEnableSimilar}
      />
    </div>
  );
}
