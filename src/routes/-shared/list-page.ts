import type { ApiClient, RequestOptions } from '../../api/client';
import { pageLoadOptions } from '../../api/page-load';
import type { Paged } from '../../contract/lists';
import type { ListResult } from '../../ui/list-results';
import type { ListExport } from '../../ui/list-screen';
import { loadListPage } from './list-route';
import { useListSearch } from './use-list-search';

/**
 * A list route's loader and component side, written once (docs/sections.md "Lists"). Only loaders and route
 * components use this module, which the router splits off with the section: nothing here joins the entry chunk.
 */

/** What a list route's loader gives its screen: the page (or why not) and the section's location choice, if any. */
export interface LoadedList<Row, Choice = never> {
  result: ListResult<Row>;
  locations: readonly Choice[];
}

const NO_CHOICES: readonly never[] = [];

/**
 * The page the URL names and, in parallel, the location choice of the section's filter: without the choice the list
 * still works (all the user's locations). A refusal is said on the page, in place, so it raises no toast.
 */
export async function loadList<Row, Choice = never>(
  abortController: AbortController,
  page: (options: RequestOptions) => Promise<Paged<Row>>,
  locations?: (options: RequestOptions) => Promise<readonly Choice[]>,
): Promise<LoadedList<Row, Choice>> {
  const options = pageLoadOptions(abortController);
  const [result, choices] = await Promise.all([
    loadListPage(() => page(options)),
    locations ? locations(options).catch(() => NO_CHOICES) : NO_CHOICES,
  ]);
  return { result, locations: choices };
}

/** The hooks of a list's file route that its component uses. */
interface ListRoute<S> {
  useSearch: () => S;
  useNavigate: () => unknown;
  useRouteContext: () => { api: ApiClient };
}

type ListPage<S, Row, Choice> = ReturnType<typeof useListSearch<S>> & {
  result: ListResult<Row> | null;
  locations: readonly Choice[];
};

/** Saves the rows of the list the URL names as CSV (the section's API call). */
type ExportRows<S> = (api: ApiClient, search: S, onProgress: Parameters<ListExport>[0]) => Promise<void>;

/**
 * What a list screen takes from its route: the URL's search and the ways to change or retry it (useListSearch), the
 * loaded page (null while it loads: the skeleton), the location choice, and the CSV export of the list's rows with
 * its current filters and sort.
 */
export function useListPage<S, Row, Choice>(
  route: ListRoute<S>,
  loaded: LoadedList<Row, Choice> | null,
  exportRows: ExportRows<S>,
): ListPage<S, Row, Choice> & { onExport: ListExport };
export function useListPage<S, Row, Choice>(route: ListRoute<S>, loaded: LoadedList<Row, Choice> | null): ListPage<S, Row, Choice>;
export function useListPage<S, Row, Choice>(route: ListRoute<S>, loaded: LoadedList<Row, Choice> | null, exportRows?: ExportRows<S>) {
  const list = useListSearch(route);
  const { api } = route.useRouteContext();
  const page: ListPage<S, Row, Choice> = { ...list, result: loaded?.result ?? null, locations: loaded?.locations ?? NO_CHOICES };
  return exportRows ? { ...page, onExport: ((onProgress) => exportRows(api, list.search, onProgress)) satisfies ListExport } : page;
}
