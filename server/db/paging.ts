import { LIST_ROW_LIMIT, type ListWindow, type Paged, type SortDirection } from '../../src/contract/lists';
import type { Queryable } from './db';
import type { SqlParams } from './sql';

/**
 * One page of a filtered, sorted list, and its total counted up to LIST_ROW_LIMIT. `from` is everything after
 * SELECT … (FROM, joins and WHERE); `orderBy` must end with a unique key, so that pages never overlap or skip.
 *
 * `keyed` is for big tables: the page's rows are found by their keys first (`keyed.key`, the unique key that ends
 * `orderBy`), and only then read, with `select`, through `keyed.rowsFrom` (the same tables without WHERE, joined on
 * the key): a "deferred join". Rows skipped by OFFSET then cost an index entry, not a row with its joins and formatted
 * columns (a page near LIST_ROW_LIMIT skips ~10,000), and where the sort, the filter and the key share an index the
 * keys come from the index alone.
 *
 * `keyed.rare` is for filters whose matches the planner cannot estimate (text fragments): left to itself it may walk
 * the sort index for a fragment it guesses at ~1 % of the rows that matches a few hundred of a million, reading the
 * whole table for one page. Then one statement collects the key and sort value (`keyed.sortExpr`) of up to
 * LIST_ROW_LIMIT + 1 matches, counts them and, when they are all the matches, cuts the page from them: a cost bounded
 * by the count's. Only when there are more does a second statement walk the sort order to the page, which is quick
 * because matches are that dense.
 */
export async function pageOf<Row>(
  db: Queryable,
  query: {
    select: string;
    from: string;
    orderBy: string;
    params: SqlParams;
    window: ListWindow;
    keyed?: { key: string; rowsFrom: string; sortExpr: string; direction: SortDirection; rare: boolean };
  },
): Promise<Paged<Row>> {
  const { page, pageSize } = query.window;
  const values = query.params.values;
  const limit = `$${values.length + 1}`;
  const offset = `$${values.length + 2}`;
  const window = [...values, pageSize, (page - 1) * pageSize];
  // Counting stops one past the limit: enough to say "10,000+" without visiting every match.
  const count = async () =>
    (
      await db.query<{ total: number }>(
        `SELECT count(*)::integer AS total FROM (SELECT 1 ${query.from} LIMIT ${limit}) AS matching`,
        [...values, LIST_ROW_LIMIT + 1],
      )
    ).rows[0]?.total ?? 0;
  const paged = (rows: Row[], counted: number): Paged<Row> => ({
    rows,
    total: Math.min(counted, LIST_ROW_LIMIT),
    totalIsLowerBound: counted > LIST_ROW_LIMIT,
    page,
    pageSize,
  });
  const keyed = query.keyed;
  if (!keyed) {
    const [rows, counted] = await Promise.all([
      db.query<Row>(`SELECT ${query.select} ${query.from} ORDER BY ${query.orderBy} LIMIT ${limit} OFFSET ${offset}`, window),
      count(),
    ]);
    return paged(rows.rows, counted);
  }
  const inOrder = async () =>
    (
      await db.query<Row>(
        `SELECT ${query.select}
           FROM (SELECT ${keyed.key} AS page_key ${query.from} ORDER BY ${query.orderBy} LIMIT ${limit} OFFSET ${offset}) AS page
           JOIN (${keyed.rowsFrom}) ON ${keyed.key} = page.page_key
          ORDER BY ${query.orderBy}`,
        window,
      )
    ).rows;
  if (!keyed.rare) {
    const [rows, counted] = await Promise.all([inOrder(), count()]);
    return paged(rows, counted);
  }
  const order = keyed.direction === 'asc' ? 'ASC' : 'DESC';
  const first = await db.query<Row & { matching_total: number; page_sort: unknown; page_key: unknown }>(
    `WITH matches AS MATERIALIZED (
       SELECT ${keyed.key} AS page_key, ${keyed.sortExpr} AS page_sort ${query.from} LIMIT $${values.length + 3})
     SELECT counted.total AS matching_total, found.*
       FROM (SELECT count(*)::integer AS total FROM matches) AS counted
       LEFT JOIN LATERAL (
         SELECT ${query.select}, page.page_sort, page.page_key
           FROM (SELECT page_key, page_sort FROM matches WHERE counted.total <= ${LIST_ROW_LIMIT}
                  ORDER BY page_sort ${order}, page_key ${order} LIMIT ${limit} OFFSET ${offset}) AS page
           JOIN (${keyed.rowsFrom}) ON ${keyed.key} = page.page_key
       ) AS found ON true
      ORDER BY found.page_sort ${order}, found.page_key ${order}`,
    [...window, LIST_ROW_LIMIT + 1],
  );
  const counted = first.rows[0]?.matching_total ?? 0;
  if (counted > LIST_ROW_LIMIT) return paged(await inOrder(), counted);
  const rows = first.rows
    .filter((row) => row.page_key !== null)
    .map(({ matching_total: _total, page_sort: _sort, page_key: _key, ...row }) => row as Row);
  return paged(rows, counted);
}

/** A page that starts past LIST_ROW_LIMIT rows is refused: the caller answers 400 with this message. */
export function pageBeyondLimit(window: ListWindow): string | null {
  if ((window.page - 1) * window.pageSize < LIST_ROW_LIMIT) return null;
  return `Invalid query: page ${window.page} starts past the first ${LIST_ROW_LIMIT.toLocaleString('en-US')} rows; narrow the search or export the CSV, which has every row.`;
}

/**
 * Every row of a filtered list in batches, for CSV export: keyset pagination on (sort key, unique key), so each batch
 * is an index range scan and memory stays flat whatever the number of rows (OFFSET would rescan from the start).
 * The next batch is asked for as soon as one arrives, so the database reads it while the caller writes this one out.
 */
export async function* keysetBatches<Row extends Record<string, unknown>>(
  db: Queryable,
  query: {
    select: string;
    from: string;
    /** Has a WHERE already (`WHERE true` when there is no filter). */
    params: SqlParams;
    sortExpr: string;
    sortAlias: string;
    keyExpr: string;
    keyAlias: string;
    direction: SortDirection;
    batchSize?: number;
  },
): AsyncGenerator<Row[]> {
  const batchSize = query.batchSize ?? 5000;
  const order = query.direction === 'asc' ? 'ASC' : 'DESC';
  const comparison = query.direction === 'asc' ? '>' : '<';
  const batchAfter = (after: [unknown, unknown] | null) => {
    const values = [...query.params.values];
    let keyset = '';
    if (after) {
      values.push(after[0], after[1]);
      keyset = ` AND (${query.sortExpr}, ${query.keyExpr}) ${comparison} ($${values.length - 1}, $${values.length})`;
    }
    values.push(batchSize);
    const batch = db.query<Row>(
      `SELECT ${query.select}, (${query.sortExpr})::text AS ${query.sortAlias}, (${query.keyExpr})::text AS ${query.keyAlias}
       ${query.from}${keyset}
       ORDER BY ${query.sortExpr} ${order}, ${query.keyExpr} ${order} LIMIT $${values.length}`,
      values,
    );
    // Awaited below; if the caller stops first, its failure has no one to tell.
    batch.catch(() => undefined);
    return batch;
  };
  let next = batchAfter(null);
  for (;;) {
    const { rows } = await next;
    const full = rows.length === batchSize;
    if (full) {
      // The cursor travels as PostgreSQL's own text of the values: a JavaScript Date would drop microseconds.
      const last = rows[rows.length - 1]!;
      next = batchAfter([last[query.sortAlias], last[query.keyAlias]]);
    }
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}
