import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { LocationRef } from '../../../permissions/permissions-object';
import {
  SEARCH_CATEGORIES,
  type PlateSearchRequest,
  type PlateSearchResult,
  type SearchCategory,
} from '../../../worker/enforcement-worker-api';
import { CategoryResults } from './category-results';
import { describeSyncAge } from './enforcement-format';

export interface PlateSearchProps {
  search: (request: PlateSearchRequest) => Promise<PlateSearchResult>;
  locations: readonly LocationRef[];
  /** False while a fresh sync fills the store, or when there is no store: results would be incomplete. */
  ready: boolean;
  /** When the store was last brought up to date (epoch ms), for the empty result. */
  lastSyncedAt: number | null;
  now?: () => number;
}

type Pages = Partial<Record<SearchCategory, number>>;

/**
 * The officer's plate search: a large "License plate" field that upper-cases as you type, a location choice and the
 * similar-characters toggle; results come from the worker on every keystroke, grouped by category.
 */
export function PlateSearch({ search, locations, ready, lastSyncedAt, now = Date.now }: PlateSearchProps) {
  const inputId = useId();
  const locationId = useId();
  const [query, setQuery] = useState('');
  const [location, setLocation] = useState<number | undefined>(undefined);
  const [similar, setSimilar] = useState(true);
  const [pages, setPages] = useState<Pages>({});
  const [answer, setAnswer] = useState<{ query: string; result: PlateSearchResult; at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const byId = useMemo(() => new Map(locations.map((l) => [l.location_id, l])), [locations]);
  const text = query.trim();

  useEffect(() => {
    if (!ready || !text) return;
    const ticket = ++latest.current;
    const at = now();
    search({ text, locationId: location, now: at, pages, similar }).then(
      (result) => {
        if (ticket !== latest.current) return;
        setAnswer({ query: text, result, at });
        setError(null);
      },
      (reason: unknown) => {
        if (ticket === latest.current) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  }, [search, text, location, similar, pages, ready, now]);

  // The previous answer stays until the next arrives, so a keystroke never paints an empty results area first.
  const shown = ready && text && answer ? answer : null;
  const nothingFound = shown !== null && SEARCH_CATEGORIES.every((c) => shown.result[c].total === 0);

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
          value={query}
          onChange={(event) => {
            setQuery(event.target.value.toUpperCase());
            setPages({});
          }}
        />
        <div className="plate-search-options">
          <label htmlFor={locationId}>Location</label>
          <select
            id={locationId}
            value={location ?? ''}
            onChange={(event) => {
              setLocation(event.target.value ? Number(event.target.value) : undefined);
              setPages({});
            }}
          >
            <option value="">All my locations</option>
            {locations.map((l) => (
              <option key={l.location_id} value={l.location_id}>
                {l.name}
              </option>
            ))}
          </select>
          <label className="toggle">
            <input
              type="checkbox"
              checked={similar}
              onChange={(event) => {
                setSimilar(event.target.checked);
                setPages({});
              }}
            />
            Similar characters (O/0, I/1, S/5, B/8, Z/2, G/6)
          </label>
        </div>
      </div>
      <div aria-live="polite" className="plate-search-results">
        {error && (
          <p role="alert" className="form-error">
            Search failed: {error}
          </p>
        )}
        {!text && ready && <p className="muted">Type part of a plate, as you read it.</p>}
        {nothingFound && (
          <p className="empty-result">
            No record matches “{shown.query}”. Data {describeSyncAge(lastSyncedAt, now())}.
          </p>
        )}
        {shown &&
          !nothingFound &&
          SEARCH_CATEGORIES.map((category) => (
            <CategoryResults
              key={category}
              category={category}
              result={shown.result[category]}
              locations={byId}
              query={shown.query}
              now={shown.at}
              onPage={(page) => setPages((current) => ({ ...current, [category]: page }))}
            />
          ))}
      </div>
    </div>
  );
}
