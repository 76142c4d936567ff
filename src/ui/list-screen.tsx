import type { RowData } from '@tanstack/react-table';
import type { ComponentProps, ReactNode } from 'react';
import { CsvExportButton } from './csv-export-button';
import type { DataColumn, SortState } from './data-table';
import { ListFilters } from './list-filters';
import { listScreenState, ListResults, type ListScreenState, type ListSearch } from './list-results';
import type { ActiveFilter } from './list-states';
import { SectionPage } from './section-page';
import { SectionTabs } from './section-tabs';

// A list screen's props are this state and its own; its module names both.
export type { ListScreenState };

/**
 * What a list is, declared once by its section beside the columns: its page's title, what a row is ("promo code"; the
 * plural adds an "s"), the table's caption and the row's key. Where the column choice is kept defaults to the plural
 * ("promo-codes"), and what an empty list says with no filter in force to "No promo codes yet.". The default sort is
 * a column's (`sortedByDefault`), where its key is.
 */
export interface ListIdentity<Row> {
  /** The page's heading; none where the list is part of a page with its own (Users, Roles). */
  title?: string;
  noun: string;
  caption: string;
  rowKey: (row: Row) => string;
  columnChoiceKey?: string;
  whenUnfiltered?: ReactNode;
}

/** The list's order when the URL names none: its column marked `sortedByDefault`, in that column's first direction. */
function defaultSortOf<Row>(columns: readonly DataColumn<Row>[]): SortState {
  const column = columns.find((candidate) => candidate.sortedByDefault) ?? columns[0]!;
  return { key: column.id, dir: column.firstDirection ?? 'asc' };
}

/** The identity with its defaults filled in, as ListResults takes it. */
function resultsIdentity<Row>(identity: ListIdentity<Row>, columns: readonly DataColumn<Row>[]) {
  const { noun, caption, rowKey } = identity;
  const defaultSort = defaultSortOf(columns);
  const nouns = { one: noun, other: `${noun}s` };
  return {
    noun: nouns,
    caption,
    rowKey,
    defaultSort,
    columnChoiceKey: identity.columnChoiceKey ?? nouns.other.replaceAll(' ', '-'),
    whenUnfiltered: identity.whenUnfiltered ?? <p>{`No ${nouns.other} yet.`}</p>,
  };
}

/**
 * The filters in force of a list searched by text and status (TextAndStatusFilters), in words: "Search: “union”",
 * "Status: Inactive".
 */
export function textAndStatusInForce<T extends string>(
  search: { q?: string | undefined; status?: T | undefined },
  statusLabel: (status: T) => string,
): ActiveFilter[] {
  const filters: ActiveFilter[] = [];
  if (search.q) filters.push({ label: 'Search', value: `“${search.q}”` });
  if (search.status) filters.push({ label: 'Status', value: statusLabel(search.status) });
  return filters;
}

/** Saves a list's rows as CSV, with its filters and sort, saying how many bytes have arrived (CsvExportButton). */
export type ListExport = (onProgress: (receivedBytes: number) => void) => Promise<void>;

export interface ListScreenProps<Row, S extends ListSearch> {
  /**
   * The route's state as the screen got it (a screen passes its own props: only these are read), with the CSV export
   * of the list's rows when the screen offers one (CsvExportButton, with the list's filters and sort).
   */
  list: ListScreenState<Row, S> & { onExport?: ListExport };
  identity: ListIdentity<Row>;
  /** Under the title, the links to the other screens of the section (src/routes/-shared/section-tabs.ts). */
  tabs?: ComponentProps<typeof SectionTabs>;
  /** Between the title (and tabs) and the toolbar: a subtitle, a choice of lists. */
  intro?: ReactNode;
  /** The toolbar's own buttons and links (Add …), before the CSV export. */
  actions?: ReactNode;
  /** The filters in force, in words: "Filters (n)" counts them and the empty state names them. */
  filters: readonly ActiveFilter[];
  /** The filter form (src/ui/filter-form.tsx), inline on a wide screen and behind "Filters (n)" on a phone. */
  filterForm: ReactNode;
  columns: readonly DataColumn<Row>[];
  /** What "Clear filters" keeps besides sort, direction and page size. */
  keepOnClear?: readonly (keyof S)[];
  /** After the results: a dialog the rows open. */
  children?: ReactNode;
}

/**
 * An admin list's screen (docs/sections.md "List screen"), laid out once: title, tabs, intro, toolbar (actions, CSV), the
 * filters (results first on a phone) and the results in each of their states. Its props follow that order.
 */
export function ListScreen<Row extends RowData, S extends ListSearch>(props: ListScreenProps<Row, S>) {
  const { list, filters } = props;
  const { title } = props.identity;
  const identity = resultsIdentity(props.identity, props.columns);
  const { onExport } = list;
  const toolbar = (props.actions || onExport) && (
    <div className="list-toolbar">
      {props.actions}
      {onExport && <CsvExportButton onExport={onExport} />}
    </div>
  );
  const screen = (
    <>
      {props.tabs && <SectionTabs {...props.tabs} />}
      {props.intro}
      {toolbar}
      <ListFilters count={filters.length}>{props.filterForm}</ListFilters>
      <ListResults
        // A different list in the same place (Enforcement Lite's two) starts with a table of its own.
        key={identity.columnChoiceKey}
        {...identity}
        {...listScreenState(list)}
        columns={props.columns}
        filters={filters}
        {...(props.keepOnClear ? { keepOnClear: props.keepOnClear } : {})}
      />
      {props.children}
    </>
  );
  return title === undefined ? screen : <SectionPage title={title}>{screen}</SectionPage>;
}
