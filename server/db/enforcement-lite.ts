import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type {
  LiteLocation,
  LiteLocationChoice,
  LiteLocationInput,
  LiteLocationListQuery,
  LiteLocationUpdate,
  LiteOfficer,
  LiteOfficerInvite,
  LiteOfficerListQuery,
  LiteOfficerUpdate,
} from '../../src/contract/enforcement-lite';
import { MAX_INT_ID } from '../../src/contract/ids';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { pageOf } from './paging';
import { iso, likeFragment, SqlParams } from './sql';
import { AUDIT_ENTITY_USER } from './staff-identity';

/**
 * Enforcement Lite (docs/enforcement-lite.md): lite locations are `locations` rows with offering 'lite' and
 * enforcement always on; lite officers are `users` rows marked lite_officer, without a role, whose locations are in
 * lite_officer_locations (read into their permissions by server/db/staff.ts on every call). Callers are superusers.
 */

const LOCATION_COLUMNS = `l.location_id, l.name, l.address, l.time_zone, l.capacity, l.grace_period_minutes,
  l.operator_name, l.status,
  (SELECT count(*)::integer FROM lite_officer_locations ol WHERE ol.location_id = l.location_id) AS officer_count,
  l.version, ${iso('l.updated_at')} AS updated_at`;
const LOCATION_AUDITED = 'name, address, time_zone, capacity, grace_period_minutes, operator_name, status, version';
const LOCATION_SORTS = {
  name: 'lower(l.name)',
  operator_name: 'lower(l.operator_name)',
  time_zone: 'l.time_zone',
  capacity: 'l.capacity',
  status: 'l.status',
} as const;

const validId = (id: number) => Number.isInteger(id) && id >= 1 && id <= MAX_INT_ID;

export function listLiteLocationsPage(
  db: Queryable,
  query: LiteLocationListQuery,
  window: ListWindow,
): Promise<Paged<LiteLocation>> {
  const params = new SqlParams();
  const conditions = ["l.offering = 'lite'"];
  if (query.q) {
    const pattern = params.add(likeFragment(query.q));
    conditions.push(`(l.name ILIKE ${pattern} OR l.address ILIKE ${pattern} OR l.operator_name ILIKE ${pattern})`);
  }
  if (query.status) conditions.push(`l.status = ${params.add(query.status)}`);
  const order = (query.dir ?? 'asc') === 'asc' ? 'ASC' : 'DESC';
  return pageOf<LiteLocation>(db, {
    select: LOCATION_COLUMNS,
    from: `FROM locations l WHERE ${conditions.join(' AND ')}`,
    orderBy: `${LOCATION_SORTS[query.sort ?? 'name']} ${order}, l.location_id ${order}`,
    params,
    window,
  });
}

export async function findLiteLocation(db: Queryable, locationId: number): Promise<LiteLocation | undefined> {
  if (!validId(locationId)) return undefined;
  const { rows } = await db.query<LiteLocation>(
    `SELECT ${LOCATION_COLUMNS} FROM locations l WHERE l.location_id = $1 AND l.offering = 'lite'`,
    [locationId],
  );
  return rows[0];
}

export async function listLiteLocationChoices(db: Queryable): Promise<LiteLocationChoice[]> {
  const { rows } = await db.query<LiteLocationChoice>(
    "SELECT location_id, name, status FROM locations WHERE offering = 'lite' ORDER BY lower(name), location_id",
  );
  return rows;
}

export type LiteLocationWriteResult =
  | { kind: 'ok'; location: LiteLocation }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateName'; name: string };

/** Names are unique across both offerings: /list shows every location by name. */
async function nameTaken(tx: Queryable, name: string, exceptId: number | null): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM locations WHERE lower(name) = lower($1) AND location_id IS DISTINCT FROM $2',
    [name, exceptId],
  );
  return rows.length > 0;
}

async function locationState(tx: Queryable, locationId: number, lock: boolean) {
  if (!validId(locationId)) return undefined;
  const { rows } = await tx.query<Record<string, unknown> & { version: number }>(
    `SELECT ${LOCATION_AUDITED} FROM locations WHERE location_id = $1 AND offering = 'lite'${lock ? ' FOR UPDATE' : ''}`,
    [locationId],
  );
  return rows[0];
}

const locationValues = (input: LiteLocationInput) => [
  input.name,
  input.address,
  input.time_zone,
  input.capacity,
  input.grace_period_minutes,
  input.operator_name,
  input.status,
];

export async function createLiteLocation(tx: Queryable, actor: Actor, input: LiteLocationInput): Promise<LiteLocationWriteResult> {
  if (await nameTaken(tx, input.name, null)) return { kind: 'duplicateName', name: input.name };
  const { rows } = await tx.query<{ location_id: number }>(
    `INSERT INTO locations (name, address, time_zone, capacity, grace_period_minutes, operator_name, status,
                            offering, enforcement_enabled, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'lite', true, $8) RETURNING location_id`,
    [...locationValues(input), actor.userId],
  );
  const locationId = rows[0]!.location_id;
  const after = (await locationState(tx, locationId, false))!;
  await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action: 'create', before: null, after });
  return { kind: 'ok', location: (await findLiteLocation(tx, locationId))! };
}

export async function updateLiteLocation(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  input: LiteLocationUpdate,
): Promise<LiteLocationWriteResult> {
  const before = await locationState(tx, locationId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) {
    return { kind: 'conflict', conflict: { currentVersion: before.version, ...(await lastChange(tx, 'location', locationId)) } };
  }
  if (await nameTaken(tx, input.name, locationId)) return { kind: 'duplicateName', name: input.name };
  await tx.query(
    `UPDATE locations
        SET name = $2, address = $3, time_zone = $4, capacity = $5, grace_period_minutes = $6, operator_name = $7,
            status = $8, version = version + 1, updated_at = now(), updated_by = $9
      WHERE location_id = $1`,
    [locationId, ...locationValues(input), actor.userId],
  );
  const after = (await locationState(tx, locationId, false))!;
  const action = before.status === after.status ? 'update' : after.status === 'active' ? 'activate' : 'deactivate';
  await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action, before, after });
  return { kind: 'ok', location: (await findLiteLocation(tx, locationId))! };
}

const OFFICER_LOCATIONS = '(SELECT ol.location_id FROM lite_officer_locations ol WHERE ol.user_id = u.user_id)';
const OFFICER_COLUMNS = `u.user_id, u.email, u.display_name,
  ARRAY(SELECT location_id FROM ${OFFICER_LOCATIONS} AS ids ORDER BY 1) AS location_ids,
  ARRAY(SELECT l.name FROM locations l WHERE l.location_id IN ${OFFICER_LOCATIONS} ORDER BY lower(l.name)) AS location_names,
  u.status, ${iso('u.last_sign_in_at')} AS last_sign_in_at, u.identity_uid IS NOT NULL AS linked, u.version,
  ${iso('u.updated_at')} AS updated_at`;
const OFFICER_SORTS = {
  email: 'u.email',
  display_name: "lower(coalesce(u.display_name, ''))",
  status: 'u.status',
  last_sign_in_at: "coalesce(u.last_sign_in_at, '-infinity'::timestamptz)",
} as const;

export function listLiteOfficersPage(db: Queryable, query: LiteOfficerListQuery, window: ListWindow): Promise<Paged<LiteOfficer>> {
  const params = new SqlParams();
  const conditions = ['u.lite_officer'];
  if (query.q) {
    const pattern = params.add(likeFragment(query.q));
    conditions.push(`(u.email ILIKE ${pattern} OR u.display_name ILIKE ${pattern})`);
  }
  if (query.status) conditions.push(`u.status = ${params.add(query.status)}`);
  if (query.locationId !== undefined) conditions.push(`${params.add(query.locationId)}::int IN ${OFFICER_LOCATIONS}`);
  const order = (query.dir ?? 'asc') === 'asc' ? 'ASC' : 'DESC';
  return pageOf<LiteOfficer>(db, {
    select: OFFICER_COLUMNS,
    from: `FROM users u WHERE ${conditions.join(' AND ')}`,
    orderBy: `${OFFICER_SORTS[query.sort ?? 'email']} ${order}, u.user_id ${order}`,
    params,
    window,
  });
}

export async function findLiteOfficer(db: Queryable, userId: number): Promise<LiteOfficer | undefined> {
  if (!validId(userId)) return undefined;
  const { rows } = await db.query<LiteOfficer>(
    `SELECT ${OFFICER_COLUMNS} FROM users u WHERE u.user_id = $1 AND u.lite_officer`,
    [userId],
  );
  return rows[0];
}

export type LiteOfficerWriteResult =
  | { kind: 'ok'; officer: LiteOfficer }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateEmail'; email: string }
  | { kind: 'notLiteLocations'; ids: number[] }
  | { kind: 'self' };

/** Ids among these that are not lite locations (full-offering or missing): an officer may be given only lite ones. */
async function notLite(tx: Queryable, ids: readonly number[]): Promise<number[]> {
  const { rows } = await tx.query<{ location_id: number }>(
    `SELECT location_id FROM locations WHERE location_id = ANY($1::int[]) AND offering = 'lite' FOR SHARE`,
    [ids],
  );
  const lite = new Set(rows.map((row) => row.location_id));
  return ids.filter((id) => !lite.has(id));
}

/** Checked before the identity provider creates the account, and again in the transaction that writes the row. */
export async function checkOfficerInvite(tx: Queryable, input: LiteOfficerInvite): Promise<LiteOfficerWriteResult | null> {
  const missing = await notLite(tx, input.location_ids);
  if (missing.length > 0) return { kind: 'notLiteLocations', ids: missing };
  if ((await tx.query('SELECT 1 FROM users WHERE email = $1', [input.email])).rows.length > 0) {
    return { kind: 'duplicateEmail', email: input.email };
  }
  return null;
}

async function officerState(tx: Queryable, userId: number, lock: boolean) {
  if (!validId(userId)) return undefined;
  const { rows } = await tx.query<{ display_name: string | null; status: string; version: number }>(
    `SELECT display_name, status, version FROM users WHERE user_id = $1 AND lite_officer${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const locations = await tx.query<{ location_id: number }>(
    'SELECT location_id FROM lite_officer_locations WHERE user_id = $1 ORDER BY location_id',
    [userId],
  );
  return { ...row, location_ids: locations.rows.map((location) => location.location_id) };
}

async function setOfficerLocations(tx: Queryable, userId: number, ids: readonly number[]): Promise<void> {
  await tx.query('DELETE FROM lite_officer_locations WHERE user_id = $1 AND NOT (location_id = ANY($2::int[]))', [userId, ids]);
  await tx.query(
    `INSERT INTO lite_officer_locations (user_id, location_id)
     SELECT $1::int, unnest($2::int[]) ON CONFLICT DO NOTHING`,
    [userId, ids],
  );
}

/**
 * Adds the officer, bound to the sign-in account the identity provider created (`uid`; null when an account with that
 * e-mail existed: its first verified sign-in claims the row, as for any invitation).
 */
export async function inviteLiteOfficer(
  tx: Queryable,
  actor: Actor,
  input: LiteOfficerInvite,
  uid: string | null,
  now: Date,
): Promise<LiteOfficerWriteResult> {
  const refused = await checkOfficerInvite(tx, input);
  if (refused) return refused;
  const boundElsewhere = uid !== null && (await tx.query('SELECT 1 FROM users WHERE identity_uid = $1', [uid])).rows.length > 0;
  const linkUid = boundElsewhere ? null : uid;
  const { rows } = await tx.query<{ user_id: number }>(
    `INSERT INTO users (email, display_name, role_id, lite_officer, identity_uid, identity_linked_at, invited_by, updated_by)
     VALUES ($1, $2, NULL, true, $3, $4, $5, $5) RETURNING user_id`,
    [input.email, input.display_name, linkUid, linkUid === null ? null : now, actor.userId],
  );
  const userId = rows[0]!.user_id;
  await setOfficerLocations(tx, userId, input.location_ids);
  const after = { email: input.email, ...(await officerState(tx, userId, false)) };
  await writeAudit(tx, { actor, entity: AUDIT_ENTITY_USER, entityId: userId, action: 'invite', before: null, after });
  return { kind: 'ok', officer: (await findLiteOfficer(tx, userId))! };
}

/** Name, locations and status from `version`; nobody disables themselves (a superuser is no lite officer anyway). */
export async function updateLiteOfficer(
  tx: Queryable,
  actor: Actor,
  userId: number,
  input: LiteOfficerUpdate,
): Promise<LiteOfficerWriteResult> {
  const before = await officerState(tx, userId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) {
    return { kind: 'conflict', conflict: { currentVersion: before.version, ...(await lastChange(tx, AUDIT_ENTITY_USER, userId)) } };
  }
  if (userId === actor.userId) return { kind: 'self' };
  const missing = await notLite(tx, input.location_ids);
  if (missing.length > 0) return { kind: 'notLiteLocations', ids: missing };
  await tx.query(
    `UPDATE users SET display_name = $2, status = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE user_id = $1`,
    [userId, input.display_name, input.status, actor.userId],
  );
  await setOfficerLocations(tx, userId, input.location_ids);
  const after = (await officerState(tx, userId, false))!;
  const action = before.status === after.status ? 'update' : after.status === 'active' ? 'enable' : 'disable';
  await writeAudit(tx, { actor, entity: AUDIT_ENTITY_USER, entityId: userId, action, before, after });
  return { kind: 'ok', officer: (await findLiteOfficer(tx, userId))! };
}
