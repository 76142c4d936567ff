import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE, LIST_ROW_LIMIT, PAGE_SIZES, type Paged } from '../contract/lists';
import { DataTable, type DataColumn, type DataTablePage, type SortDirection, type SortState } from './data-table';
import { formatCount } from './format';
import { EmptyState, LoadError, TableSkeleton, type ActiveFilter } from './list-states';
import { isRetryableStatus } from './load-failure-kind';

/** A list page, or why the server would not give it: shown in place, beside the filters that may be the cause. */
export type ListResult<Row> = { ok: true; page: Paged<Row> } | { ok: false; message: string; status?: number };

/** What every list's URL search holds besides its filters (src/contract/lists.ts). */
export interface ListSearch {
  sort?: string | undefined;
  dir?: SortDirection | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

export interface ListResultsProps<Row, S extends ListSearch> {
  /** The page, why it could not be had, or null while it loads (the route's pending screen). */
  result: ListResult<Row> | null;
  search: S;
  /**
   * Changes the URL's search, from the URL's current one (not this render's `search`: a change made while the
   * previous one still loads keeps it); the route loads what it names.
   */
  onSearch: (update: (current: S) => S) => void;
  onRetry: () => void;
  /** A newer page is loading: the rows shown are the previous ones. */
  busy: boolean;
  /** What a row is: "1 location", "Loading locations…", "No locations match …". */
  noun: { one: string; other: string };
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly DataColumn<Row>[];
  rowKey: (row: Row) => string;
  /** The sort when the URL names none (the server's default). */
  defaultSort: SortState;
  /** Where the column choice is remembered (DataTable). */
  columnChoiceKey: string;
  /** The filters in force, in words: the empty state names them. */
  filters: readonly ActiveFilter[];
  /** What an empty list says when no filter is in force ("No locations are assigned to you yet."). */
  whenUnfiltered: ReactNode;
  /** What "Clear filters" keeps besides sort, direction and page size (Enforcement Lite: which list is shown). */
  keepOnClear?: readonly (keyof S)[];
}

/** What a list screen gets from its route (the loader's page, useListSearch) and hands to ListResults as it is. */
export type ListScreenState<Row, S extends ListSearch> = Pick<ListResultsProps<Row, S>, 'result' | 'search' | 'onSearch' | 'onRetry' | 'busy'>;

/** Those props alone, out of a screen's props (which hold more: its locations, permissions, export…). */
export function listScreenState<Row, S extends ListSearch>(props: ListScreenState<Row, S>): ListScreenState<Row, S> {
  const { result, search, onSearch, onRetry, busy } = props;
  return { result, search, onSearch, onRetry, busy };
}

/**
 * A list's pager wired to its URL (docs/sections.md "Lists"): a page change writes `page`, a page-size change writes
 * `pageSize` and goes back to page 1; defaults are left out of the URL, so a plain link and page 1 read the same.
 */
export function urlPaging<S extends ListSearch>(
  page: Paged<unknown>,
  noun: DataTablePage['noun'],
  onSearch: (update: (current: S) => S) => void,
): DataTablePage {
  return {
    page: page.page,
    pageSize: page.pageSize,
    pageSizes: PAGE_SIZES,
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
    noun,
    onPageChange: (next) => onSearch((current) => ({ ...current, page: next === 1 ? undefined : next })),
    onPageSizeChange: (pageSize) =>
      onSearch((current) => ({
        ...current,
        pageSize: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize,
        page: undefined,
      })),
  };
}

/** The sort a list is shown in: the URL's, or the default; a key without a direction reads as the server does. */
export function sortOf(search: ListSearch, defaultSort: SortState): SortState {
  if (!search.sort) return defaultSort;
  return { key: search.sort, dir: search.dir ?? (search.sort === defaultSort.key ? defaultSort.dir : 'asc') };
}

/** The server refused a page past the row limit (server/db/paging.ts): a narrower search or the CSV is the way on. */
const isPastRowLimit = (result: { status?: number; message: string }) =>
  result.status === 400 && /narrow the search/i.test(result.message);

/**
 * Where a list's rows go, in each of its states (docs/sections.md "List screen"): a skeleton while the first page
 * loads, the failure with Retry in place, an empty list that says why (and clears the filters in force), or the table
 * with its pager. Sort and paging changes go to the URL through `onSearch`, each starting again at page 1.
 */
export function ListResults<Row extends RowData, S extends ListSearch>(props: ListResultsProps<Row, S>) {
  const { result, onSearch, noun } = props;
  if (result === null) {
    const shown = props.columns.filter((column) => !column.hiddenByDefault).length;
    return <TableSkeleton columns={shown} label={`Loading ${noun.other}…`} />;
  }
  if (!result.ok) {
    if (isPastRowLimit(result)) {
      return (
        <LoadError
          title={`This page is past the first ${formatCount(LIST_ROW_LIMIT)} ${noun.other}`}
          message={result.message}
          hint={`Pages reach the first ${formatCount(LIST_ROW_LIMIT)} ${noun.other}: narrow the search or export CSV for every row.`}
          onRetry={() => onSearch((current) => ({ ...current, page: undefined }))}
        />
      );
    }
    // Only a failure a retry can fix offers Retry: a refusal (a filter naming a location outside yours) says why.
    const onRetry = isRetryableStatus(result.status) ? props.onRetry : undefined;
    return <LoadError title={`Could not load ${noun.other}`} message={result.message} onRetry={onRetry} />;
  }
  if (result.page.rows.length === 0) {
    const kept: readonly (keyof S)[] = ['sort', 'dir', 'pageSize', ...(props.keepOnClear ?? [])];
    return (
      <EmptyState
        noun={noun.other}
        filters={props.filters}
        onClearFilters={() =>
          onSearch((current) => {
            // List searches hold optional parameters only: what is not kept is left out.
            const next = {} as S;
            for (const key of kept) next[key] = current[key];
            return next;
          })
        }
        whenUnfiltered={props.whenUnfiltered}
      />
    );
  }
  return (
    <DataTable
      caption={props.caption}
      columns={props.columns}
      rows={result.page.rows}
      rowKey={props.rowKey}
      sort={sortOf(props.search, props.defaultSort)}
      onSortChange={(next) => onSearch((current) => ({ ...current, sort: next.key, dir: next.dir, page: undefined }))}
      columnChoiceKey={props.columnChoiceKey}
      busy={props.busy}
      paging={urlPaging(result.page, noun, onSearch)}
    />
  );
}
