import type {
  LatestPayment,
  RealtimeHour,
  RealtimeLocation,
  RealtimeSummary,
  SettledDashboard,
  SettledFigures,
} from '../../src/contract/dashboards';
import type { LocationScope } from '../../src/permissions/scope';
import type { Queryable } from './db';
import { listLocationRefsIn } from './locations';
import { cents, iso, SqlParams } from './sql';

/**
 * The dashboards' reads. Everything money comes from the rollups of 006_dashboard_rollups.sql (one row per location
 * and day or hour), so the cost follows the locations and the range, never the number of payments. The only reads
 * of payments are bounded by what is happening now: the stays not yet expired (an index range on expiry) and the
 * ten latest payments.
 */

/** The locations a request covers: the user's scope, narrowed to one when `locationId` is given. */
function chosenLocations(params: SqlParams, scope: LocationScope, locationId: number | undefined, column: string): string {
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`${column} = ANY(${params.add(scope.ids)}::int[])`);
  if (locationId !== undefined) conditions.push(`${column} = ${params.add(locationId)}`);
  return conditions.length ? conditions.join(' AND ') : 'true';
}

const LATEST_PAYMENTS = 10;

/** The last change id the rollups include: is_called is false until the first change. */
export async function latestChangeId(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS id FROM dashboard_change_seq',
  );
  return rows[0]?.id ?? 0;
}

export async function realtimeSummary(
  db: Queryable,
  scope: LocationScope,
  locationId: number | undefined,
  now: Date,
): Promise<RealtimeSummary> {
  const params = new SqlParams();
  const at = params.add(now.toISOString());
  const where = chosenLocations(params, scope, locationId, 'l.location_id');
  // Each location's today: from its local midnight to the next one (23 or 25 hours on DST days).
  const located = `SELECT l.location_id, l.name, l.time_zone, l.capacity,
                          (${at}::timestamptz AT TIME ZONE l.time_zone)::date AS today
                     FROM locations l WHERE ${where}`;
  // Independent reads: on PostgreSQL they run side by side on pooled connections (PGlite queues them).
  const locationsQuery = db.query<RealtimeLocation & { change_id: number }>(
    // The change id in the same statement (snapshot) as the figures: they include at least that change.
    `WITH located AS (${located})
     SELECT x.location_id, x.name, x.time_zone, x.today::text AS local_day, x.capacity,
            coalesce(d.payments, 0)::float8 AS payments, coalesce(d.gross_cents, 0)::float8 AS gross_cents,
            coalesce(d.refunded_cents, 0)::float8 AS refunded_cents,
            (SELECT count(*) FROM transactions t
              WHERE t.location_id = x.location_id AND t.expiry_date_time > ${at}::timestamptz
                AND t.payment_time <= ${at}::timestamptz)::float8 AS active_sessions,
            (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM dashboard_change_seq)::float8 AS change_id
       FROM located x LEFT JOIN payment_day_rollups d ON d.location_id = x.location_id AND d.local_day = x.today
      ORDER BY lower(x.name), x.location_id`,
    params.values,
  );
  // Two index ranges per location (today, and the same weekday a week ago, each its own local day): the bounds are
  // computed per location first (MATERIALIZED, and OFFSET 0 keeps the planner from flattening the LATERAL), so the
  // rollups are read by index range, never converted row by row: flattened, a year of hours took 0.5–2 s.
  const hoursQuery = db.query<RealtimeHour>(
    `WITH located AS (${located}),
     windows AS MATERIALIZED (
       SELECT x.location_id, x.time_zone, w.day,
              (x.today - w.back)::timestamp AT TIME ZONE x.time_zone AS starts,
              (x.today - w.back + 1)::timestamp AT TIME ZONE x.time_zone AS ends
         FROM located x CROSS JOIN (VALUES (0, 'today'), (7, 'last_week')) AS w(back, day)
     ),
     hourly AS (
       SELECT extract(hour FROM h.hour_start AT TIME ZONE x.time_zone)::int AS hour, x.day, h.payments, h.gross_cents
         FROM windows x
        CROSS JOIN LATERAL (SELECT r.hour_start, r.payments, r.gross_cents FROM payment_hour_rollups r
                             WHERE r.location_id = x.location_id AND r.hour_start >= x.starts AND r.hour_start < x.ends
                             OFFSET 0) AS h
     )
     SELECT g.hour,
            coalesce(sum(payments) FILTER (WHERE day = 'today'), 0)::float8 AS payments,
            coalesce(sum(gross_cents) FILTER (WHERE day = 'today'), 0)::float8 AS gross_cents,
            coalesce(sum(payments) FILTER (WHERE day = 'last_week'), 0)::float8 AS last_week_payments,
            coalesce(sum(gross_cents) FILTER (WHERE day = 'last_week'), 0)::float8 AS last_week_gross_cents
       FROM generate_series(0, 23) AS g(hour) LEFT JOIN hourly USING (hour)
      GROUP BY g.hour ORDER BY g.hour`,
    params.values,
  );
  const latestParams = new SqlParams();
  const latestQuery = db.query<LatestPayment>(
    `SELECT t.transaction_id::float8 AS transaction_id, t.location_id, l.name AS location_name, l.time_zone,
            ${iso('t.payment_time')} AS payment_time, ${cents('t.payment_amount')} AS amount_cents, t.payment_method
       FROM transactions t JOIN locations l ON l.location_id = t.location_id
      WHERE ${chosenLocations(latestParams, scope, locationId, 't.location_id')}
      ORDER BY t.payment_time DESC, t.transaction_id DESC
      LIMIT ${LATEST_PAYMENTS}`,
    latestParams.values,
  );
  const [locations, hours, latest, choices] = await Promise.all([
    locationsQuery,
    hoursQuery,
    latestQuery,
    listLocationRefsIn(db, scope),
  ]);
  return {
    as_of: now.toISOString(),
    change_id: locations.rows[0]?.change_id ?? (await latestChangeId(db)),
    choices,
    locations: locations.rows.map(({ change_id: _change, ...location }) => location),
    hours: hours.rows,
    latest: latest.rows,
  };
}

const FIGURES = `sum(r.payments)::float8 AS payments, sum(r.gross_cents)::float8 AS gross_cents,
  sum(r.fee_cents)::float8 AS fee_cents, sum(r.refunded_cents)::float8 AS refunded_cents,
  sum(r.gross_cents - r.fee_cents - r.refunded_cents)::float8 AS net_cents`;

const ZERO: SettledFigures = { payments: 0, gross_cents: 0, fee_cents: 0, refunded_cents: 0, net_cents: 0 };

/** The settled rollups of the chosen locations between two days (both included). */
function settledWhere(params: SqlParams, scope: LocationScope, query: { from: string; to: string; locationId?: number }) {
  return `r.settled_date BETWEEN ${params.add(query.from)}::date AND ${params.add(query.to)}::date
      AND ${chosenLocations(params, scope, query.locationId, 'r.location_id')}`;
}

export async function settledDashboard(
  db: Queryable,
  scope: LocationScope,
  query: { from: string; to: string; locationId?: number },
): Promise<SettledDashboard> {
  const dayParams = new SqlParams();
  const daysQuery = db.query<SettledDashboard['days'][number]>(
    `SELECT g.day::date::text AS day, coalesce(f.payments, 0) AS payments, coalesce(f.gross_cents, 0) AS gross_cents,
            coalesce(f.fee_cents, 0) AS fee_cents, coalesce(f.refunded_cents, 0) AS refunded_cents,
            coalesce(f.net_cents, 0) AS net_cents
       FROM generate_series(${dayParams.add(query.from)}::date, ${dayParams.add(query.to)}::date, interval '1 day') AS g(day)
       LEFT JOIN (SELECT r.settled_date, ${FIGURES} FROM settled_day_rollups r
                   WHERE ${settledWhere(dayParams, scope, query)} GROUP BY r.settled_date) AS f
              ON f.settled_date = g.day::date
      ORDER BY g.day`,
    dayParams.values,
  );
  const locationParams = new SqlParams();
  const locationsQuery = db.query<SettledDashboard['locations'][number]>(
    `SELECT l.location_id, l.name, f.payments, f.gross_cents, f.fee_cents, f.refunded_cents, f.net_cents
       FROM (SELECT r.location_id, ${FIGURES} FROM settled_day_rollups r
              WHERE ${settledWhere(locationParams, scope, query)} GROUP BY r.location_id) AS f
       JOIN locations l ON l.location_id = f.location_id
      WHERE f.payments <> 0 OR f.gross_cents <> 0
      ORDER BY lower(l.name), l.location_id`,
    locationParams.values,
  );
  // Side by side on PostgreSQL's pool; queued on PGlite.
  const [days, locations, choices] = await Promise.all([daysQuery, locationsQuery, listLocationRefsIn(db, scope)]);
  // Integers below 2^53 add up exactly.
  const totals = days.rows.reduce<SettledFigures>(
    (sum, day) => ({
      payments: sum.payments + day.payments,
      gross_cents: sum.gross_cents + day.gross_cents,
      fee_cents: sum.fee_cents + day.fee_cents,
      refunded_cents: sum.refunded_cents + day.refunded_cents,
      net_cents: sum.net_cents + day.net_cents,
    }),
    ZERO,
  );
  return {
    from: query.from,
    to: query.to,
    choices,
    days: days.rows,
    locations: locations.rows,
    totals,
  };
}

export interface SettledCsvRow extends SettledFigures {
  day: string;
  location_id: number;
  name: string;
}

/** The CSV's rows: one per day and location with settled money, by day then location name. */
export async function* settledRows(db: Queryable, scope: LocationScope, query: { from: string; to: string; locationId?: number }) {
  const params = new SqlParams();
  const { rows } = await db.query<SettledCsvRow>(
    `SELECT r.settled_date::text AS day, r.location_id, l.name, r.payments::float8 AS payments,
            r.gross_cents::float8 AS gross_cents, r.fee_cents::float8 AS fee_cents,
            r.refunded_cents::float8 AS refunded_cents,
            (r.gross_cents - r.fee_cents - r.refunded_cents)::float8 AS net_cents
       FROM settled_day_rollups r JOIN locations l ON l.location_id = r.location_id
      WHERE ${settledWhere(params, scope, query)}
        AND (r.payments <> 0 OR r.gross_cents <> 0)
      ORDER BY r.settled_date, lower(l.name), r.location_id`,
    params.values,
  );
  // At most days × locations rows (18,250 for a year of 50): read at once, written in batches.
  for (let start = 0; start < rows.length; start += 1000) yield rows.slice(start, start + 1000);
}
