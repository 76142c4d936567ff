import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type { Location, LocationInput, LocationListQuery } from '../../src/contract/locations';
import type { LocationRef } from '../../src/permissions/permissions-object';
import type { LocationScope } from '../../src/permissions/scope';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { iso, likeFragment, SqlParams } from './sql';

const LOCATION_COLUMNS = `l.location_id, l.name, l.address, l.time_zone, l.capacity, l.status, l.enforcement_enabled,
  l.grace_period_minutes, l.version, ${iso('l.updated_at')} AS updated_at`;
/** What the audit trail keeps of a location: the fields a person edits, plus the version it moved to. */
const AUDITED_COLUMNS = `name, address, time_zone, capacity, status, enforcement_enabled, grace_period_minutes, version`;

/** location_id is a PostgreSQL integer; larger ids cannot exist, and sending them would fail the query. */
export const MAX_LOCATION_ID = 2_147_483_647;

const SORT_EXPRESSIONS = {
  name: 'lower(l.name)',
  time_zone: 'l.time_zone',
  capacity: 'l.capacity',
  status: 'l.status',
  enforcement_enabled: 'l.enforcement_enabled',
  grace_period_minutes: 'l.grace_period_minutes',
} as const;

/** FROM and WHERE of the list and the export: the user's locations, the text search, the status filter. */
function filtered(scope: LocationScope, query: LocationListQuery) {
  const params = new SqlParams();
  // Enforcement Lite's locations are listed and edited in their own section (docs/enforcement-lite.md).
  const conditions: string[] = ["l.offering = 'full'"];
  if (!scope.all) conditions.push(`l.location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (query.q) {
    const pattern = params.add(likeFragment(query.q));
    conditions.push(`(l.name ILIKE ${pattern} OR l.address ILIKE ${pattern} OR l.time_zone ILIKE ${pattern})`);
  }
  if (query.status) conditions.push(`l.status = ${params.add(query.status)}`);
  const from = `FROM locations l WHERE ${conditions.join(' AND ')}`;
  return { params, from, sortExpr: SORT_EXPRESSIONS[query.sort ?? 'name'], direction: query.dir ?? 'asc' };
}

export function listLocationsPage(
  db: Queryable,
  scope: LocationScope,
  query: LocationListQuery,
  window: ListWindow,
): Promise<Paged<Location>> {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<Location>(db, {
    select: LOCATION_COLUMNS,
    from,
    orderBy: `${sortExpr} ${order}, l.location_id ${order}`,
    params,
    window,
  });
}

/** Every filtered location, in list order, for the CSV export. */
export function locationBatches(db: Queryable, scope: LocationScope, query: LocationListQuery) {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  return keysetBatches<Location & Record<string, unknown>>(db, {
    select: LOCATION_COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'l.location_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

export async function findLocation(db: Queryable, locationId: number): Promise<Location | undefined> {
  if (!Number.isInteger(locationId) || locationId < 1 || locationId > MAX_LOCATION_ID) return undefined;
  const { rows } = await db.query<Location>(`SELECT ${LOCATION_COLUMNS} FROM locations l WHERE l.location_id = $1 AND l.offering = 'full'`, [
    locationId,
  ]);
  return rows[0];
}

/** What the permissions object needs of every location (ids for superusers, names for enforcementLocations). */
export async function listLocationRefs(db: Queryable): Promise<LocationRef[]> {
  const { rows } = await db.query<LocationRef>(
    'SELECT location_id, name, time_zone FROM locations ORDER BY location_id',
  );
  return rows;
}

/**
 * The locations of a scope, for a screen's location choice: by name as people read them (`lower(name)`: "Union …"
 * before "UX …" whatever the collation; PGlite's is C), the id breaking ties.
 */
export async function listLocationRefsIn(db: Queryable, scope: LocationScope): Promise<LocationRef[]> {
  const { rows } = await db.query<LocationRef>(
    `SELECT location_id, name, time_zone FROM locations
      WHERE ${scope.all ? 'true' : 'location_id = ANY($1::int[])'} ORDER BY lower(name), location_id`,
    scope.all ? [] : [scope.ids],
  );
  return rows;
}

export type LocationWriteResult =
  | { kind: 'ok'; location: Location }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateName'; name: string }
  | { kind: 'hasRecords' };

/** The edited fields in the column order both the INSERT and the UPDATE list them. */
function editedValues(input: LocationInput): unknown[] {
  return [
    input.name,
    input.address,
    input.time_zone,
    input.capacity,
    input.status,
    input.enforcement_enabled,
    input.grace_period_minutes,
  ];
}

async function nameTaken(tx: Queryable, name: string, exceptId?: number): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM locations WHERE lower(name) = lower($1) AND location_id IS DISTINCT FROM $2',
    [name, exceptId ?? null],
  );
  return rows.length > 0;
}

async function auditedState(tx: Queryable, locationId: number, lock: boolean) {
  const { rows } = await tx.query<Record<string, unknown> & { version: number }>(
    `SELECT ${AUDITED_COLUMNS} FROM locations WHERE location_id = $1 AND offering = 'full'${lock ? ' FOR UPDATE' : ''}`,
    [locationId],
  );
  return rows[0];
}

async function conflictOf(
  tx: Queryable,
  locationId: number,
  currentVersion: number,
): Promise<Extract<LocationWriteResult, { kind: 'conflict' }>> {
  return { kind: 'conflict', conflict: { currentVersion, ...(await lastChange(tx, 'location', locationId)) } };
}

/**
 * Adds a location. Its creator's role gains the `lo` levels it already holds elsewhere at the new location too,
 * so the person who added it can see and finish it (docs/decisions/0039-creator-role-gains-a-new-location.md);
 * superusers need nothing.
 */
export async function createLocation(tx: Queryable, actor: Actor, input: LocationInput): Promise<LocationWriteResult> {
  if (await nameTaken(tx, input.name)) return { kind: 'duplicateName', name: input.name };
  const { rows } = await tx.query<{ location_id: number }>(
    `INSERT INTO locations (name, address, time_zone, capacity, status, enforcement_enabled, grace_period_minutes,
                            updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING location_id`,
    [...editedValues(input), actor.userId],
  );
  const locationId = rows[0]!.location_id;
  await writeAudit(tx, {
    actor,
    entity: 'location',
    entityId: locationId,
    action: 'create',
    before: null,
    after: (await auditedState(tx, locationId, false))!,
  });
  const granted = await tx.query<{ role_id: number; level: string }>(
    `INSERT INTO role_permissions (role_id, feature, level, location_id)
     SELECT DISTINCT rp.role_id, 'lo', rp.level, $2::int
       FROM users u JOIN role_permissions rp ON rp.role_id = u.role_id AND rp.feature = 'lo'
      WHERE u.user_id = $1
     ON CONFLICT DO NOTHING
     RETURNING role_id, level`,
    [actor.userId, locationId],
  );
  const roleId = granted.rows[0]?.role_id;
  if (roleId !== undefined) {
    await writeAudit(tx, {
      actor,
      entity: 'role',
      entityId: roleId,
      action: 'grant',
      before: null,
      after: { feature: 'lo', location_id: locationId, levels: granted.rows.map((row) => row.level).sort() },
    });
  }
  return { kind: 'ok', location: (await findLocation(tx, locationId))! };
}

/** Saves an edit made from `version`; refused with who changed it and when if the location moved on since. */
export async function updateLocation(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  input: LocationInput & { version: number },
): Promise<LocationWriteResult> {
  const before = await auditedState(tx, locationId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, locationId, before.version);
  if (await nameTaken(tx, input.name, locationId)) return { kind: 'duplicateName', name: input.name };
  await tx.query(
    `UPDATE locations
        SET name = $2, address = $3, time_zone = $4, capacity = $5, status = $6, enforcement_enabled = $7,
            grace_period_minutes = $8, version = version + 1, updated_at = now(), updated_by = $9
      WHERE location_id = $1`,
    [locationId, ...editedValues(input), actor.userId],
  );
  const after = (await auditedState(tx, locationId, false))!;
  await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action: 'update', before, after });
  return { kind: 'ok', location: (await findLocation(tx, locationId))! };
}

/** Deactivates or activates; asking for the status it already has changes nothing and writes no audit row. */
export async function setLocationStatus(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  change: { status: Location['status']; version: number },
): Promise<LocationWriteResult> {
  const before = await auditedState(tx, locationId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== change.version) return conflictOf(tx, locationId, before.version);
  if (before.status !== change.status) {
    await tx.query(
      `UPDATE locations SET status = $2, version = version + 1, updated_at = now(), updated_by = $3
        WHERE location_id = $1`,
      [locationId, change.status, actor.userId],
    );
    const after = (await auditedState(tx, locationId, false))!;
    const action = change.status === 'active' ? 'activate' : 'deactivate';
    await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action, before, after });
  }
  return { kind: 'ok', location: (await findLocation(tx, locationId))! };
}

/** Deletes a location that has no records; one with payments, bookings, parkers or citations is deactivated instead. */
export async function deleteLocation(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  version: number,
): Promise<Exclude<LocationWriteResult, { kind: 'ok' }> | { kind: 'deleted' }> {
  const before = await auditedState(tx, locationId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== version) return conflictOf(tx, locationId, before.version);
  const { rows } = await tx.query(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM transactions WHERE location_id = $1)
                 OR EXISTS (SELECT 1 FROM bookings WHERE location_id = $1)
                 OR EXISTS (SELECT 1 FROM monthly_parkers WHERE location_id = $1)
                 OR EXISTS (SELECT 1 FROM citations WHERE location_id = $1)`,
    [locationId],
  );
  if (rows.length > 0) return { kind: 'hasRecords' };
  await tx.query('DELETE FROM locations WHERE location_id = $1', [locationId]);
  await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action: 'delete', before, after: null });
  return { kind: 'deleted' };
}
