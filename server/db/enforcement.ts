import {
  PURGE_AFTER_SECONDS,
  type BookingRecord,
  type MonthlyParkerRecord,
  type SyncType,
  type TransactionRecord,
} from '../../src/contract/enforcement';
import type { Queryable } from './db';
import { MAX_LOCATION_ID } from './locations';
import { iso } from './sql';

export type SyncRecord = TransactionRecord | BookingRecord | MonthlyParkerRecord;

export interface SyncPageQuery {
  type: SyncType;
  locationIds: readonly number[];
  /** Unix seconds: only records with updated_at ≥ this. */
  updatedAtFrom: number;
  /** Records to skip after that point (the ones with updated_at = updatedAtFrom the caller already has). */
  offset: number;
  limit: number;
  /** Decides valid against expired, and where the 21-day window starts. */
  now: Date;
}


interface SyncSource {
  table: string;
  /** Unique per row: orders records that share one updated_at. */
  key: string;
  /** Columns the per-location scan reads (raw), and the record as the contract shapes it (from `page`). */
  columns: string;
  record: string;
  /** Extra condition on `t`; its parameters follow the five common ones ($6, $7, …). */
  filter: string;
  params: (now: Date) => unknown[];
}

const TRANSACTION_COLUMNS =
  't.transaction_id, t.location_id, t.license_plate, t.expiry_date_time, t.phone_number, t.payment_time, ' +
  't.payment_amount, t.refunded_amount, t.updated_at';
// Numbers leave as float8: node-postgres would turn bigint and numeric into strings. Exact up to 2^53.
const TRANSACTION_RECORD = `page.transaction_id::float8 AS transaction_id, page.location_id, page.license_plate,
  ${iso('page.expiry_date_time')} AS expiry_date_time,
  floor(extract(epoch FROM page.expiry_date_time))::float8 AS expiry_date_time_unix,
  page.phone_number, ${iso('page.payment_time')} AS payment_time,
  page.payment_amount::float8 AS payment_amount, page.refunded_amount::float8 AS refunded_amount,
  page.updated_at::float8 AS updated_at`;

const BOOKING_COLUMNS =
  't.id, t.license_plate, t.location_id, t.expiry_date_time, t.created_at, t.payment_amount, t.payment_time, ' +
  't.updated_at';
const BOOKING_RECORD = `page.id::float8 AS id, page.license_plate, page.location_id,
  ${iso('page.expiry_date_time')} AS expiry_date_time, ${iso('page.created_at')} AS created_at,
  page.payment_amount::float8 AS payment_amount, ${iso('page.payment_time')} AS payment_time,
  page.updated_at::float8 AS updated_at`;

const purgeCutoff = (now: Date) => new Date(now.getTime() - PURGE_AFTER_SECONDS * 1000).toISOString();

const booking = (source: 'spothero' | 'parkwhiz'): SyncSource => ({
  table: 'bookings',
  key: 'id',
  columns: BOOKING_COLUMNS,
  record: BOOKING_RECORD,
  // Bookings that ended more than 21 days ago would only be purged again by the console (spec §9).
  filter: 't.source = $6 AND t.expiry_date_time > $7::timestamptz',
  params: (now) => [source, purgeCutoff(now)],
});

const SOURCES: Record<SyncType, SyncSource> = {
  valid: {
    table: 'transactions',
    key: 'transaction_id',
    columns: TRANSACTION_COLUMNS,
    record: TRANSACTION_RECORD,
    filter: 't.expiry_date_time > $6::timestamptz',
    params: (now) => [now.toISOString()],
  },
  expired: {
    table: 'transactions',
    key: 'transaction_id',
    columns: TRANSACTION_COLUMNS,
    record: TRANSACTION_RECORD,
    filter: 't.expiry_date_time <= $6::timestamptz AND t.expiry_date_time > $7::timestamptz',
    params: (now) => [now.toISOString(), purgeCutoff(now)],
  },
  spothero: booking('spothero'),
  parkwhiz: booking('parkwhiz'),
  monthly_parkers: {
    table: 'monthly_parkers',
    key: 'monthly_parker_id',
    columns:
      't.monthly_parker_id, t.license_plate, t.location_id, t.vehicle_status, t.parkerid, t.fname, t.lname, ' +
      't.homephone, t.mobilephone, t.workphone, t.parker_status, t.updated_at',
    record: `page.license_plate, page.location_id, page.vehicle_status AS "vehicleStatus",
      page.parkerid::float8 AS parkerid, page.fname, page.lname, page.homephone, page.mobilephone, page.workphone,
      page.parker_status AS "parkerStatus", page.updated_at::float8 AS updated_at`,
    filter: 'true',
    params: () => [],
  },
};

/**
 * One page of the enforcement sync: the records of `type` at the given locations with updated_at ≥ updatedAtFrom,
 * ordered by (updated_at, key), after skipping `offset` of them.
 *
 * Each location is read on its own in index order (LATERAL, `LIMIT offset + limit`), and the per-location runs are
 * merged and cut: a single `location_id = ANY(…)` scan would have to read and sort every matching row of every listed
 * location to find the first page. For valid, expired and bookings the planner may instead start from the expiry
 * index when the expiry window is the narrower bound (a fresh sync, updated_at = 0).
 */
export async function listSyncPage(db: Queryable, query: SyncPageQuery): Promise<SyncRecord[]> {
  return JSON.parse(await syncPageJson(db, query)) as SyncRecord[];
}

/**
 * The same page as a JSON array, built by the database: the route sends it as it is. Turning 2000 rows into objects
 * (node-postgres) and back into JSON (the route) took several ms of the API's one thread per page, on the critical
 * path of a sync (each page is asked once the previous one arrived); PostgreSQL writes the JSON in about the time it
 * took to send the rows. The text is what JSON.stringify of the rows gave (same keys, order and numbers).
 */
export async function syncPageJson(db: Queryable, query: SyncPageQuery): Promise<string> {
  // Ids beyond PostgreSQL's integer cannot exist (and would fail the cast); duplicates would repeat records.
  const locationIds = [...new Set(query.locationIds)].filter((id) => id >= 1 && id <= MAX_LOCATION_ID);
  if (locationIds.length === 0) return '[]';
  const source = SOURCES[query.type];
  const sql = `SELECT '[' || coalesce(string_agg(record, ',' ORDER BY ord), '') || ']' AS data FROM (
    SELECT (SELECT to_json(r)::text FROM (SELECT ${source.record}) r) AS record,
           row_number() OVER (ORDER BY page.updated_at, page.${source.key}) AS ord
    FROM unnest($1::int[]) AS listed(location_id)
    CROSS JOIN LATERAL (
      SELECT ${source.columns} FROM ${source.table} t
       WHERE t.location_id = listed.location_id AND t.updated_at >= $2::bigint AND ${source.filter}
       ORDER BY t.updated_at, t.${source.key}
       LIMIT $3::bigint
    ) page
    ORDER BY page.updated_at, page.${source.key}
    OFFSET $4::bigint LIMIT $5::bigint
  ) records`;
  const { rows } = await db.query<{ data: string }>(sql, [
    locationIds,
    query.updatedAtFrom,
    query.offset + query.limit,
    query.offset,
    query.limit,
    ...source.params(query.now),
  ]);
  return rows[0]?.data ?? '[]';
}
