import type { ListWindow, Paged } from '../../src/contract/lists';
import {
  parseAmountToCents,
  type TransactionDetail,
  type TransactionRow,
  type TransactionSearch,
} from '../../src/contract/transactions';
import type { LocationScope } from '../../src/permissions/scope';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { cents, iso, likeFragment, SqlParams } from './sql';

const ROW_COLUMNS = `t.transaction_id::float8 AS transaction_id, t.location_id, l.name AS location_name, l.time_zone,
  t.license_plate, ${iso('t.payment_time')} AS payment_time, ${iso('t.expiry_date_time')} AS expiry_date_time,
  ${cents('t.payment_amount')} AS amount_cents, ${cents('t.fee')} AS fee_cents,
  ${cents('t.refunded_amount')} AS refunded_cents, t.payment_method, t.status, NULLIF(t.phone_last4, '') AS phone_last4`;

const SORT_EXPRESSIONS = {
  payment_time: 't.payment_time',
  amount: 't.payment_amount',
  license_plate: 't.license_plate',
  transaction_id: 't.transaction_id',
} as const;

/** Plates are stored without spaces or dashes, in capitals; a fragment is read the same way. */
export function normalisePlateFragment(fragment: string): string {
  return fragment.replace(/[\s-]/g, '').toUpperCase();
}

/** 1250 → '12.50': the numeric literal of an amount in cents, without passing through a float. */
function centsToNumeric(amountCents: number): string {
  return `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
}

/** The joined location gives each row its name and time zone. */
const WITH_LOCATION = 'transactions t JOIN locations l ON l.location_id = t.location_id';

/**
 * The searched days in UTC at each location the search can reach: [the local midnight that starts `from`, the one
 * that ends `to`) — a day ends where the next one starts, never "start + 24 h" (DST days have 23 or 25 hours) — either
 * end open when not given. Locations whose bounds are the same (one time zone) come as one group.
 */
async function localDays(db: Queryable, scope: LocationScope, search: TransactionSearch) {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (search.locationId) conditions.push(`location_id = ${params.add(Number(search.locationId))}`);
  const start = search.from ? `${params.add(search.from)}::date::timestamp AT TIME ZONE time_zone` : 'NULL::timestamptz';
  const end = search.to ? `(${params.add(search.to)}::date + 1)::timestamp AT TIME ZONE time_zone` : 'NULL::timestamptz';
  const { rows } = await db.query<{ ids: number[]; starts: string | null; ends: string | null }>(
    `SELECT array_agg(location_id ORDER BY location_id) AS ids, ${iso('day_start')} AS starts, ${iso('day_end')} AS ends
       FROM (SELECT location_id, ${start} AS day_start, ${end} AS day_end
               FROM locations WHERE ${conditions.join(' AND ') || 'true'}) AS days
      GROUP BY day_start, day_end
      ORDER BY min(location_id)`,
    params.values,
  );
  return rows;
}

/**
 * FROM and WHERE of the search and its export. Dates are calendar days in each payment's location's time zone: their
 * UTC bounds are computed per location first (localDays), so the search compares payment_time with constants, per
 * group of locations, within the UTC window of all of them. The planner then knows how many rows the days hold and
 * range-scans payment_time or (location_id, payment_time), with no time zone arithmetic per row.
 *
 * `matching` (no join) counts and picks a page's keys; `from` (with the location) reads rows.
 */
async function filtered(db: Queryable, scope: LocationScope, search: TransactionSearch) {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`t.location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (search.locationId) conditions.push(`t.location_id = ${params.add(Number(search.locationId))}`);
  if (search.plate) {
    const fragment = normalisePlateFragment(search.plate);
    if (fragment.length === 2) {
      // Trigrams need 3 characters: 2 are looked up among the plate's pairs of adjacent characters, lower-cased as
      // ILIKE compares them (005_transaction_search_indexes.sql). The fragment is 2 letters or digits, so a pair
      // equal to it is exactly an ILIKE match; with ILIKE beside it the planner would take the two for independent
      // filters and guess 50 times too few matches.
      conditions.push(`plate_bigrams(t.license_plate) @> ARRAY[lower(${params.add(fragment)}::text)]`);
    } else {
      conditions.push(`t.license_plate ILIKE ${params.add(likeFragment(fragment))}`);
    }
  }
  if (search.phone) conditions.push(`t.phone_last4 = ${params.add(search.phone)}`);
  if (search.transactionId) conditions.push(`t.transaction_id = ${params.add(search.transactionId)}::bigint`);
  if (search.amount) {
    conditions.push(`t.payment_amount = ${params.add(centsToNumeric(parseAmountToCents(search.amount)))}::numeric`);
  }
  if (search.from || search.to) {
    const groups = await localDays(db, scope, search);
    const bounds = (starts: string | null, ends: string | null) => [
      ...(starts ? [`t.payment_time >= ${params.add(starts)}::timestamptz`] : []),
      ...(ends ? [`t.payment_time < ${params.add(ends)}::timestamptz`] : []),
    ];
    if (groups.length === 0) {
      conditions.push('false'); // no location in reach: nothing matches
    } else {
      // ISO 8601 texts in UTC sort as the instants do.
      const earliest = groups.every((group) => group.starts) ? groups.map((group) => group.starts!).sort()[0]! : null;
      const latest = groups.every((group) => group.ends) ? groups.map((group) => group.ends!).sort().at(-1)! : null;
      conditions.push(...bounds(earliest, latest));
      const perGroup = groups.map((group) =>
        [`t.location_id = ANY(${params.add(group.ids)}::int[])`, ...bounds(group.starts, group.ends)].join(' AND '),
      );
      conditions.push(perGroup.length === 1 ? perGroup[0]! : `(${perGroup.map((group) => `(${group})`).join(' OR ')})`);
    }
  }
  if (search.status) conditions.push(`t.status = ${params.add(search.status)}`);
  const where = `WHERE ${conditions.length ? conditions.join(' AND ') : 'true'}`;
  return {
    params,
    // See pageOf's `keyed.rare`. How many plates hold a fragment of 3 or more is a guess for the planner (~1 %
    // whatever the fragment). Pairs are estimated well (their most common elements are in the statistics), but
    // checked row by row, as an ordered walk of the sort index does, plate_bigrams (PL/pgSQL) costs ~5 µs: a walk
    // past 15,000 rows for a pair 0.4 % of the plates hold took 80 ms, against 20 ms to take every match from the
    // index. Both go the bounded way.
    rare: Boolean(search.plate),
    from: `FROM ${WITH_LOCATION} ${where}`,
    matching: `FROM transactions t ${where}`,
    sortExpr: SORT_EXPRESSIONS[search.sort ?? 'payment_time'],
    direction: search.dir ?? (search.sort && search.sort !== 'payment_time' ? 'asc' : 'desc'),
  };
}

export async function searchTransactions(
  db: Queryable,
  scope: LocationScope,
  search: TransactionSearch,
  window: ListWindow,
): Promise<Paged<TransactionRow>> {
  const { params, matching, rare, sortExpr, direction } = await filtered(db, scope, search);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<TransactionRow>(db, {
    select: ROW_COLUMNS,
    from: matching,
    orderBy: `${sortExpr} ${order}, t.transaction_id ${order}`,
    params,
    window,
    keyed: { key: 't.transaction_id', rowsFrom: WITH_LOCATION, sortExpr, direction, rare },
  });
}

/** Every matching payment, in list order, for the CSV export. */
export async function* transactionBatches(db: Queryable, scope: LocationScope, search: TransactionSearch) {
  const { params, from, sortExpr, direction } = await filtered(db, scope, search);
  yield* keysetBatches<TransactionRow & Record<string, unknown>>(db, {
    select: ROW_COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 't.transaction_id',
    keyAlias: 'row_key',
    direction,
    // 1,000 rows (~125 KB of CSV) a batch: with 5,000 the API's resident memory peaked ~70 MB higher while exporting
    // a million payments (batches outlive V8's young generation, and the garbage waits for a full collection), and
    // the rate was the same (bench:lists, BENCHMARKS.md at f3b7360, "Lists").
    batchSize: 1000,
  });
}

/** One payment with its refunds, or undefined when it does not exist or lies outside the user's locations. */
export async function findTransaction(
  db: Queryable,
  scope: LocationScope,
  transactionId: number,
): Promise<TransactionDetail | undefined> {
  const { rows } = await db.query<Omit<TransactionDetail, 'refunds'>>(
    `SELECT ${ROW_COLUMNS}, t.processor_reference, t.settled_date::text AS settled_date
       FROM transactions t JOIN locations l ON l.location_id = t.location_id
      WHERE t.transaction_id = $1`,
    [transactionId],
  );
  const payment = rows[0];
  if (!payment || !(scope.all || scope.ids.includes(payment.location_id))) return undefined;
  const refunds = await db.query<TransactionDetail['refunds'][number]>(
    `SELECT r.refund_id::float8 AS refund_id, ${cents('r.amount')} AS amount_cents, r.reason,
            ${iso('r.created_at')} AS created_at, u.email AS created_by
       FROM refunds r LEFT JOIN users u ON u.user_id = r.created_by
      WHERE r.transaction_id = $1
      ORDER BY r.created_at, r.refund_id`,
    [transactionId],
  );
  return { ...payment, refunds: refunds.rows };
}
