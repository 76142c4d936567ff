import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type {
  RateChange,
  RateChangeDetail,
  RateChangeInput,
  RateChangeListQuery,
  RateConfigUpdate,
  RateLocation,
} from '../../src/contract/rates';
import type { RateConfig, RateSet } from '../../src/rates/rate-set';
import type { LocationScope } from '../../src/permissions/scope';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { iso, SqlParams } from './sql';

/** What a location without a saved configuration prices with (shown with version 0 until saved). */
export const DEFAULT_RATE_CONFIG: RateLocation['config'] = {
  currency: 'USD',
  incrementMinutes: 15,
  rounding: 'up',
  graceMinutes: 10,
  taxBasisPoints: 0,
  dailyMaximum: 'rolling_24h',
};

/** Audit entity of a location's rates (changes scheduled or cancelled, configuration saved); its id is the location's. */
export const RATES_AUDIT_ENTITY = 'rates';

/** The status is read from the clock (`clock.now`, the request's moment, a parameter of the FROM), never stored. */
const STATUS = `CASE WHEN r.cancelled_at IS NOT NULL THEN 'cancelled' WHEN r.effective_at > clock.now THEN 'scheduled' ELSE 'applied' END`;

const CHANGE_COLUMNS = `r.rate_set_id, r.location_id, l.name AS location_name, l.time_zone,
  ${iso('r.effective_at')} AS effective_at, ${STATUS} AS status, r.reason, ${iso('r.created_at')} AS created_at,
  ${iso('r.cancelled_at')} AS cancelled_at,
  CASE WHEN cu.email IS NULL THEN NULL ELSE json_build_object('email', cu.email, 'name', cu.display_name) END AS created_by,
  CASE WHEN xu.email IS NULL THEN NULL ELSE json_build_object('email', xu.email, 'name', xu.display_name) END AS cancelled_by`;
const changeFrom = (now: string) => `FROM (SELECT ${now}::timestamptz AS now) clock
  CROSS JOIN rate_sets r JOIN locations l ON l.location_id = r.location_id
  LEFT JOIN users cu ON cu.user_id = r.created_by LEFT JOIN users xu ON xu.user_id = r.cancelled_by`;

const SORT_EXPRESSIONS = {
  effective_at: 'r.effective_at',
  location: 'lower(l.name)',
  created_at: 'r.created_at',
} as const;

function filtered(scope: LocationScope, query: RateChangeListQuery, now: Date) {
  const params = new SqlParams();
  const nowParam = params.add(now.toISOString());
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`r.location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (query.locationId !== undefined) conditions.push(`r.location_id = ${params.add(query.locationId)}`);
  if (query.status === 'cancelled') conditions.push('r.cancelled_at IS NOT NULL');
  if (query.status === 'scheduled') conditions.push('r.cancelled_at IS NULL AND r.effective_at > clock.now');
  if (query.status === 'applied') conditions.push('r.cancelled_at IS NULL AND r.effective_at <= clock.now');
  const from = `${changeFrom(nowParam)} WHERE ${conditions.length ? conditions.join(' AND ') : 'true'}`;
  return {
    params,
    from,
    sortExpr: SORT_EXPRESSIONS[query.sort ?? 'effective_at'],
    direction: query.dir ?? 'desc',
  };
}

export function listRateChangesPage(
  db: Queryable,
  scope: LocationScope,
  query: RateChangeListQuery,
  window: ListWindow,
  now: Date,
): Promise<Paged<RateChange>> {
  const { params, from, sortExpr, direction } = filtered(scope, query, now);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<RateChange>(db, {
    select: CHANGE_COLUMNS,
    from,
    orderBy: `${sortExpr} ${order}, r.rate_set_id ${order}`,
    params,
    window,
  });
}

/** Every filtered change, in list order, for the CSV export. */
export function rateChangeBatches(db: Queryable, scope: LocationScope, query: RateChangeListQuery, now: Date) {
  const { params, from, sortExpr, direction } = filtered(scope, query, now);
  return keysetBatches<RateChange & Record<string, unknown>>(db, {
    select: CHANGE_COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'r.rate_set_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

export async function findRateChange(db: Queryable, rateSetId: number, now: Date): Promise<RateChangeDetail | undefined> {
  const { rows } = await db.query<RateChangeDetail>(
    `SELECT ${CHANGE_COLUMNS}, r.rate_set ${changeFrom('$2')} WHERE r.rate_set_id = $1`,
    [rateSetId, now.toISOString()],
  );
  return rows[0];
}

/**
 * The locations a user may see rates of, for the location choice, by name as people read them. Only the full
 * offering's: an Enforcement Lite operator's pay stations are not priced here.
 */
export async function rateLocationRefs(db: Queryable, scope: LocationScope) {
  const { rows } = await db.query<{ location_id: number; name: string; time_zone: string }>(
    `SELECT location_id, name, time_zone FROM locations
      WHERE offering = 'full' AND ${scope.all ? 'true' : 'location_id = ANY($1::int[])'} ORDER BY lower(name), location_id`,
    scope.all ? [] : [scope.ids],
  );
  return rows;
}

interface ConfigRow {
  currency: string;
  increment_minutes: number;
  rounding: RateConfig['rounding'];
  grace_minutes: number;
  tax_basis_points: number;
  daily_maximum: RateConfig['dailyMaximum'];
  version: number;
  schedule_version: number;
}
const CONFIG_COLUMNS = 'currency, increment_minutes, rounding, grace_minutes, tax_basis_points, daily_maximum, version, schedule_version';
const configOf = (row: ConfigRow): RateLocation['config'] => ({
  currency: row.currency as RateLocation['config']['currency'],
  incrementMinutes: row.increment_minutes,
  rounding: row.rounding,
  graceMinutes: row.grace_minutes,
  taxBasisPoints: row.tax_basis_points,
  dailyMaximum: row.daily_maximum,
});

/** A location's rates now: configuration, the set in force, the next scheduled change. Undefined: no such location, or a lite one. */
export async function findRateLocation(db: Queryable, locationId: number, now: Date): Promise<RateLocation | undefined> {
  const { rows } = await db.query<{ location_id: number; name: string; time_zone: string } & Partial<ConfigRow>>(
    `SELECT l.location_id, l.name, l.time_zone, ${CONFIG_COLUMNS.split(', ').map((column) => `c.${column}`).join(', ')}
       FROM locations l LEFT JOIN rate_configs c ON c.location_id = l.location_id
      WHERE l.location_id = $1 AND l.offering = 'full'`,
    [locationId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const at = now.toISOString();
  const pick = async (condition: string, order: string) => {
    const { rows: found } = await db.query<{ rate_set_id: number }>(
      `SELECT rate_set_id FROM rate_sets
        WHERE location_id = $1 AND cancelled_at IS NULL AND ${condition} ORDER BY ${order} LIMIT 1`,
      [locationId, at],
    );
    return found[0] ? ((await findRateChange(db, found[0].rate_set_id, now)) ?? null) : null;
  };
  const [current, next] = await Promise.all([
    pick('effective_at <= $2::timestamptz', 'effective_at DESC, rate_set_id DESC'),
    pick('effective_at > $2::timestamptz', 'effective_at ASC, rate_set_id ASC'),
  ]);
  const saved = row.version !== undefined && row.version !== null;
  return {
    location_id: row.location_id,
    name: row.name,
    time_zone: row.time_zone,
    config: saved ? configOf(row as ConfigRow) : DEFAULT_RATE_CONFIG,
    config_version: row.version ?? 0,
    schedule_version: row.schedule_version ?? 0,
    current,
    next,
  };
}

/**
 * The location's configuration row, locked for this transaction. Without one, the location has the defaults at
 * version 0, and the row is created only if `accepts` them (the edit was made from version 0): a refused edit writes
 * nothing. A row that another transaction created meanwhile is returned instead, for the caller to judge.
 */
async function lockConfig(tx: Queryable, locationId: number, accepts: (config: ConfigRow) => boolean): Promise<ConfigRow | undefined> {
  const exists = await tx.query("SELECT 1 FROM locations WHERE location_id = $1 AND offering = 'full' FOR SHARE", [locationId]);
  if (exists.rows.length === 0) return undefined;
  const locked = async () =>
    (await tx.query<ConfigRow>(`SELECT ${CONFIG_COLUMNS} FROM rate_configs WHERE location_id = $1 FOR UPDATE`, [locationId])).rows[0];
  const saved = await locked();
  if (saved) return saved;
  const d = DEFAULT_RATE_CONFIG;
  const defaults: ConfigRow = {
    currency: d.currency,
    increment_minutes: d.incrementMinutes,
    rounding: d.rounding,
    grace_minutes: d.graceMinutes,
    tax_basis_points: d.taxBasisPoints,
    daily_maximum: d.dailyMaximum,
    version: 0,
    schedule_version: 0,
  };
  if (!accepts(defaults)) return defaults;
  await tx.query(
    `INSERT INTO rate_configs (location_id, currency, increment_minutes, rounding, grace_minutes, tax_basis_points, daily_maximum)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (location_id) DO NOTHING`,
    [locationId, d.currency, d.incrementMinutes, d.rounding, d.graceMinutes, d.taxBasisPoints, d.dailyMaximum],
  );
  return locked();
}

async function conflictOf(tx: Queryable, locationId: number, currentVersion: number): Promise<{ kind: 'conflict'; conflict: VersionConflict }> {
  // The 409 schema's currentVersion is positive; a schedule or configuration that moved on is at 1 or more.
  return { kind: 'conflict', conflict: { currentVersion, ...(await lastChange(tx, RATES_AUDIT_ENTITY, locationId)) } };
}

export type RateWriteResult<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'notScheduled'; status: string };

/** Saves the configuration edited from `version`. */
export async function updateRateConfig(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  input: RateConfigUpdate,
  now: Date,
): Promise<RateWriteResult<RateLocation>> {
  const before = await lockConfig(tx, locationId, (config) => config.version === input.version);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, locationId, before.version);
  await tx.query(
    `UPDATE rate_configs SET currency = $2, increment_minutes = $3, rounding = $4, grace_minutes = $5,
            tax_basis_points = $6, daily_maximum = $7, version = version + 1, updated_at = $8, updated_by = $9
      WHERE location_id = $1`,
    [locationId, input.currency, input.incrementMinutes, input.rounding, input.graceMinutes, input.taxBasisPoints, input.dailyMaximum, now.toISOString(), actor.userId],
  );
  const { version: _version, ...config } = input;
  await writeAudit(tx, {
    actor,
    entity: RATES_AUDIT_ENTITY,
    entityId: locationId,
    action: 'configure',
    before: { ...configOf(before), version: before.version },
    after: { ...config, version: before.version + 1 },
  });
  return { kind: 'ok', value: (await findRateLocation(tx, locationId, now))! };
}

/** Schedules a validated rate set at `effective_at`, made from the schedule at `schedule_version`. */
export async function scheduleRateChange(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  input: RateChangeInput,
  now: Date,
): Promise<RateWriteResult<RateChangeDetail>> {
  const config = await lockConfig(tx, locationId, (current) => current.schedule_version === input.schedule_version);
  if (!config) return { kind: 'notFound' };
  if (config.schedule_version !== input.schedule_version) return conflictOf(tx, locationId, config.schedule_version);
  const { rows } = await tx.query<{ rate_set_id: number }>(
    `INSERT INTO rate_sets (location_id, effective_at, rate_set, reason, created_at, created_by)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6) RETURNING rate_set_id`,
    [locationId, input.effective_at, JSON.stringify(input.rate_set satisfies RateSet), input.reason, now.toISOString(), actor.userId],
  );
  await tx.query('UPDATE rate_configs SET schedule_version = schedule_version + 1 WHERE location_id = $1', [locationId]);
  const change = (await findRateChange(tx, rows[0]!.rate_set_id, now))!;
  await writeAudit(tx, {
    actor,
    entity: RATES_AUDIT_ENTITY,
    entityId: locationId,
    action: 'schedule',
    before: null,
    after: { rate_set_id: change.rate_set_id, effective_at: change.effective_at, reason: change.reason, rate_set: input.rate_set },
  });
  return { kind: 'ok', value: change };
}

/** Cancels a change whose time has not come. */
export async function cancelRateChange(
  tx: Queryable,
  actor: Actor,
  change: RateChangeDetail,
  scheduleVersion: number,
  now: Date,
): Promise<RateWriteResult<RateChangeDetail>> {
  const config = await lockConfig(tx, change.location_id, (current) => current.schedule_version === scheduleVersion);
  if (!config) return { kind: 'notFound' };
  if (config.schedule_version !== scheduleVersion) return conflictOf(tx, change.location_id, config.schedule_version);
  const { rows } = await tx.query(
    `UPDATE rate_sets SET cancelled_at = $2, cancelled_by = $3
      WHERE rate_set_id = $1 AND cancelled_at IS NULL AND effective_at > $2::timestamptz RETURNING rate_set_id`,
    [change.rate_set_id, now.toISOString(), actor.userId],
  );
  if (rows.length === 0) return { kind: 'notScheduled', status: (await findRateChange(tx, change.rate_set_id, now))?.status ?? 'gone' };
  await tx.query('UPDATE rate_configs SET schedule_version = schedule_version + 1 WHERE location_id = $1', [change.location_id]);
  await writeAudit(tx, {
    actor,
    entity: RATES_AUDIT_ENTITY,
    entityId: change.location_id,
    action: 'cancel',
    before: { rate_set_id: change.rate_set_id, effective_at: change.effective_at, status: 'scheduled' },
    after: { rate_set_id: change.rate_set_id, effective_at: change.effective_at, status: 'cancelled' },
  });
  return { kind: 'ok', value: (await findRateChange(tx, change.rate_set_id, now))! };
}
