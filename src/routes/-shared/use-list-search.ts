import { useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback } from 'react';

/** The two hooks of a file route that a list screen's wiring needs; its search type comes from `useSearch`. */
interface SearchRoute<S> {
  useSearch: () => S;
  useNavigate: () => unknown;
}

// A route's own navigate takes a reducer over that route's search; the router's generic types say so in a form
// that TypeScript cannot match against S.
type SearchNavigate<S> = (options: { search: (current: S) => S }) => Promise<void>;

/**
 * What every list screen takes from its route (docs/sections.md "Lists"): the URL's search, a way to ask for a new
 * one, a retry that loads the page again, and whether a load is under way (the rows stay on screen, marked busy).
 * Used by the route components only, never by `validateSearch`, so it stays out of the entry chunk.
 */
export function useListSearch<S>(route: SearchRoute<S>) {
  const search = route.useSearch();
  const navigate = route.useNavigate() as SearchNavigate<S>;
  const router = useRouter();
  const busy = useRouterState({ select: (state) => state.isLoading });
  // Stable, so that callbacks and columns built on them keep their identity from one render to the next.
  const onSearch = useCallback((update: (current: S) => S) => void navigate({ search: update }), [navigate]);
  const onRetry = useCallback(() => void router.invalidate(), [router]);
  return { search, busy, onSearch, onRetry };
}
