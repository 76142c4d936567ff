import type { ReactNode } from 'react';

/** One column of a `PlainTable`: its header and what a row shows in it. */
export interface PlainColumn<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, tabular. */
  numeric?: boolean;
  /** The column that names the row (`th scope="row"`), so a screen reader says it with each cell. */
  rowHeader?: boolean;
}

type RowAttributes = Record<string, string | boolean | undefined>;

/**
 * A small table of rows the screen already holds (no sorting, no paging: `DataTable` is for server lists): a dashboard's
 * figures, a job's history, a quote's lines. The caller puts it in a `ScrollRegion` where it may be wider than a phone.
 */
export function PlainTable<Row>(props: {
  columns: readonly PlainColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** A total below the rows, in the same columns. */
  footRow?: Row;
  /** Attributes of a row's `tr` (`aria-current`, `data-*` for tests). */
  rowAttributes?: (row: Row) => RowAttributes;
  caption?: ReactNode;
  className?: string;
  testId?: string;
}) {
  const { columns, rowAttributes } = props;
  const cells = (row: Row) =>
    columns.map((column, index) => {
      const className = column.numeric ? 'numeric' : undefined;
      return column.rowHeader ? (
        <th key={index} scope="row" className={className}>
          {column.cell(row)}
        </th>
      ) : (
        <td key={index} className={className}>
          {column.cell(row)}
        </td>
      );
    });
  return (
    <table className={props.className ?? 'data-table'} data-testid={props.testId}>
      {props.caption && <caption>{props.caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col" className={column.numeric ? 'numeric' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={props.rowKey(row, index)} {...rowAttributes?.(row)}>
            {cells(row)}
          </tr>
        ))}
      </tbody>
      {props.footRow !== undefined && (
        <tfoot>
          <tr>{cells(props.footRow)}</tr>
        </tfoot>
      )}
    </table>
  );
}
