import {
  columnVisibilityFeature,
  functionalUpdate,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type PaginationState,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { ListPager, type ListPagerProps } from './list-pager';
import { ScrollRegion, useBoxWidth } from './scroll-region';

export type SortDirection = 'asc' | 'desc';

/** The sort a list is shown in: the URL's, or the list's default when the URL names none. */
export interface SortState {
  key: string;
  dir: SortDirection;
}

export interface DataColumn<Row> {
  /** Unique in the table; for a sortable column, the server's sort key. */
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  sortable?: boolean;
  /** The direction a first click sorts in (newest or largest first for times and amounts). */
  firstDirection?: SortDirection;
  /** The list's order when the URL names none (the server's default), in `firstDirection`: one column of a list. */
  sortedByDefault?: boolean;
  /** Always shown: not offered in the column choice. */
  alwaysShown?: boolean;
  /** Hidden until chosen in the column choice. */
  hiddenByDefault?: boolean;
  numeric?: boolean;
  /**
   * Which columns give way first when the table's box is narrow (until the user makes a column choice): 1 (the
   * default) never does, 2 below a tablet's width, 3 below a desktop's content width (1280 px with the sidebar).
   */
  priority?: ColumnPriority;
  /** The row's actions (Edit, Cancel): always shown, at the right, never wrapped, and kept in view on a wide screen. */
  actions?: boolean;
}

export type ColumnPriority = 1 | 2 | 3;

/** Below these widths of the table's box (px), a column of that priority is left out. */
const PRIORITY_MIN_WIDTH: Record<ColumnPriority, number> = { 1: 0, 2: 640, 3: 1024 };

/** The pager's figures and callbacks; the table counts the pages itself. */
export type DataTablePage = Omit<ListPagerProps, 'pageCount'>;

export interface DataTableProps<Row> {
  /** Names the table for screen readers and its scrolling region. */
  caption: string;
  columns: readonly DataColumn<Row>[];
  /** One page, already filtered, sorted and paged by the server. */
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  paging: DataTablePage;
  /**
   * Where the column choice is remembered, in this browser's local storage
   * (docs/decisions/0056-column-choice-in-local-storage.md): a personal preference, kept out of the URL so that shared
   * links show the same rows, not someone's columns.
   */
  columnChoiceKey: string;
  /** A newer page is on its way: the rows shown are the previous ones. */
  busy?: boolean;
}

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature, columnVisibilityFeature });
type Features = typeof features;

const STORAGE_PREFIX = 'lpa.columns.';

function readStoredVisibility(key: string): ColumnVisibilityState {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_PREFIX + key) ?? '{}');
    if (typeof stored !== 'object' || stored === null) return {};
    return Object.fromEntries(Object.entries(stored).filter(([, shown]) => typeof shown === 'boolean'));
  } catch {
    return {};
  }
}

const isAlwaysShown = (column: Pick<DataColumn<unknown>, 'alwaysShown' | 'actions'>) => column.alwaysShown === true || column.actions === true;

/**
 * The columns shown: the user's choice once made (remembered), otherwise the defaults less the columns whose priority
 * does not fit `boxWidth`. Either way the column choice shows what is on screen, so ticking a left-out column shows it.
 */
function useColumnVisibility<Row>(key: string, columns: readonly DataColumn<Row>[], boxWidth: number | null) {
  const [stored, setStored] = useState(() => readStoredVisibility(key));
  const visibility = useMemo(() => {
    const chosen = Object.fromEntries(
      Object.entries(stored).filter(([id]) => columns.some((column) => column.id === id && !isAlwaysShown(column))),
    );
    const fits = (column: DataColumn<Row>) =>
      boxWidth === null || Object.keys(chosen).length > 0 || boxWidth >= PRIORITY_MIN_WIDTH[column.priority ?? 1];
    const defaults = Object.fromEntries(
      columns.map((column) => [column.id, isAlwaysShown(column) || (!column.hiddenByDefault && fits(column))]),
    );
    return { ...defaults, ...chosen };
  }, [columns, stored, boxWidth]);
  const update = (updater: Updater<ColumnVisibilityState>) => {
    const next = functionalUpdate(updater, visibility);
    // At least one column that may be hidden stays shown, besides those always shown.
    if (!columns.some((column) => next[column.id] !== false)) return;
    setStored(next);
    try {
      localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(next));
    } catch {
      // Storage full or refused: the choice lasts until the page is left.
    }
  };
  return [visibility, update] as const;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * A server-side list on TanStack Table (v9): sorting and paging are the server's (manual), so a header click or a
 * page change only reports what is wanted; the route puts it in the URL and its loader fetches that page. Sortable
 * headers are buttons, the sorted one marked with aria-sort. Low-priority columns give way when the box is narrow;
 * what still does not fit scrolls sideways inside a focusable region (with a hint, and the first column kept in view),
 * so the page itself never does.
 */
export function DataTable<Row extends RowData>(props: DataTableProps<Row>) {
  const { columns, sort, paging } = props;
  const captionId = useId();
  const blockRef = useRef<HTMLDivElement>(null);
  const boxWidth = useBoxWidth(blockRef);
  const [columnVisibility, setColumnVisibility] = useColumnVisibility(props.columnChoiceKey, columns, boxWidth);

  const columnDefs = useMemo<ColumnDef<Features, Row>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        // Sorting needs an accessor; the server sorts, so the value is never compared here.
        accessorFn: () => null,
        cell: ({ row }) => column.cell(row.original),
        enableSorting: column.sortable ?? false,
        sortDescFirst: column.firstDirection === 'desc',
        enableHiding: !isAlwaysShown(column),
      })),
    [columns],
  );
  const sorting = useMemo<SortingState>(() => [{ id: sort.key, desc: sort.dir === 'desc' }], [sort.key, sort.dir]);
  const pagination = useMemo<PaginationState>(
    () => ({ pageIndex: paging.page - 1, pageSize: paging.pageSize }),
    [paging.page, paging.pageSize],
  );
  const data = useMemo(() => [...props.rows], [props.rows]);

  const table = useTable({
    features,
    columns: columnDefs,
    data,
    getRowId: (row) => props.rowKey(row),
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    rowCount: paging.total,
    state: { sorting, pagination, columnVisibility },
    onSortingChange: (updater) => {
      const [next] = functionalUpdate(updater, sorting);
      if (next) props.onSortChange({ key: next.id, dir: next.desc ? 'desc' : 'asc' });
    },
    onPaginationChange: (updater) => {
      const next = functionalUpdate(updater, pagination);
      if (next.pageSize !== pagination.pageSize) paging.onPageSizeChange(next.pageSize);
      else if (next.pageIndex !== pagination.pageIndex) paging.onPageChange(next.pageIndex + 1);
    },
    onColumnVisibilityChange: setColumnVisibility,
  });

  const hideable = table.getAllLeafColumns().filter((column) => column.getCanHide());
  const columnOf = (id: string) => columns.find((column) => column.id === id);
  const cellClass = (id: string) => {
    const column = columnOf(id);
    return [column?.numeric && 'numeric', column?.actions && 'actions'].filter(Boolean).join(' ') || undefined;
  };

  return (
    <div className="data-table-block" ref={blockRef}>
      {hideable.length > 0 && (
        <details className="column-choice">
          <summary className="button">Columns</summary>
          <fieldset>
            <legend>Columns shown</legend>
            {hideable.map((column) => (
              <label key={column.id} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={column.getIsVisible()}
                  onChange={column.getToggleVisibilityHandler()}
                />
                {columnOf(column.id)?.header ?? column.id}
              </label>
            ))}
          </fieldset>
        </details>
      )}
      <ScrollRegion labelledBy={captionId}>
        <table className="data-table" aria-busy={props.busy || undefined}>
          <caption id={captionId} className="visually-hidden">
            {props.caption}
          </caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const column = columnOf(header.column.id);
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={cellClass(header.column.id)}
                      aria-sort={sorted ? ARIA_SORT[sorted] : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          className="sort-button"
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          {column?.header}
                          <span className="sort-mark" aria-hidden="true">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          </span>
                        </button>
                      ) : (
                        column?.header
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cellClass(cell.column.id)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <ListPager
        page={paging.page}
        pageCount={table.getPageCount()}
        pageSize={paging.pageSize}
        pageSizes={paging.pageSizes}
        total={paging.total}
        totalIsLowerBound={paging.totalIsLowerBound}
        noun={paging.noun}
        onPageChange={(page) => table.setPageIndex(page - 1)}
        onPageSizeChange={(size) => table.setPageSize(size)}
      />
    </div>
  );
}
