import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import { MAX_INT_ID } from '../../src/contract/ids';
import type { Role, RoleInput, RoleListQuery } from '../../src/contract/roles';
import { holdings } from '../../src/permissions/all-locations';
import { checkRoleChange, type EscalationVerdict } from '../../src/permissions/escalation';
import {
  ACCESS_LEVELS,
  FEATURE_CODES,
  LEVEL_KEYS,
  type AccessLevel,
  type FeatureCode,
  type PermissionRecord,
} from '../../src/permissions/features';
import { allLocationIds, allLocationsOfRoles, editorHoldings, replaceAllLocations } from './all-locations';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { pageOf } from './paging';
import { iso, likeFragment, SqlParams } from './sql';
import { permissionRecordFromGrants } from './staff';

export const AUDIT_ENTITY_ROLE = 'role';

interface GrantRow {
  role_id: number;
  feature: FeatureCode;
  level: AccessLevel;
  location_id: number;
}

type RoleRow = Omit<Role, 'permissions' | 'all_locations'>;

const ROLE_COLUMNS = `r.role_id, r.name, r.superuser, r.version, ${iso('r.updated_at')} AS updated_at,
  (SELECT count(*)::integer FROM users u WHERE u.role_id = r.role_id) AS user_count`;

const SORT_EXPRESSIONS = { name: 'lower(r.name)', user_count: 'user_count', updated_at: 'r.updated_at' } as const;

/**
 * The roles' permission records, read from their grant rows, with each all-locations grant expanded to today's
 * locations (as staff.ts does for the signed-in user), so a role reads as what its holders hold.
 */
async function withPermissions(db: Queryable, rows: readonly RoleRow[]): Promise<Role[]> {
  if (rows.length === 0) return [];
  const roleIds = rows.map((row) => row.role_id);
  const { rows: grants } = await db.query<GrantRow>(
    'SELECT role_id, feature, level, location_id FROM role_permissions WHERE role_id = ANY($1::int[])',
    [roleIds],
  );
  const allLocations = await allLocationsOfRoles(db, roleIds);
  const everywhere = allLocations.size > 0 ? await allLocationIds(db) : [];
  return rows.map((row) => {
    const wide = allLocations.get(row.role_id) ?? {};
    const expanded = Object.entries(wide).flatMap(([feature, level]) =>
      everywhere.map((locationId) => ({ role_id: row.role_id, feature: feature as FeatureCode, level, location_id: locationId })),
    );
    return {
      ...row,
      permissions: permissionRecordFromGrants(row.superuser, [
        ...grants.filter((grant) => grant.role_id === row.role_id),
        ...expanded,
      ]),
      all_locations: wide,
    };
  });
}

export async function listRolesPage(db: Queryable, query: RoleListQuery, window: ListWindow): Promise<Paged<Role>> {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (query.q) conditions.push(`r.name ILIKE ${params.add(likeFragment(query.q))}`);
  const order = (query.dir ?? 'asc') === 'asc' ? 'ASC' : 'DESC';
  const page = await pageOf<RoleRow>(db, {
    select: '*',
    // user_count is a column of the subquery, so the list can sort by it.
    from: `FROM (SELECT ${ROLE_COLUMNS} FROM roles r WHERE ${conditions.join(' AND ') || 'true'}) AS r`,
    orderBy: `${SORT_EXPRESSIONS[query.sort ?? 'name']} ${order}, r.role_id ${order}`,
    params,
    window,
  });
  return { ...page, rows: await withPermissions(db, page.rows) };
}

export async function findRole(db: Queryable, roleId: number): Promise<Role | undefined> {
  if (!Number.isInteger(roleId) || roleId < 1 || roleId > MAX_INT_ID) return undefined;
  const { rows } = await db.query<RoleRow>(`SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.role_id = $1`, [roleId]);
  return (await withPermissions(db, rows))[0];
}

/** How many holders the roles list names: enough to recognise a shared role, short enough for a form's hint. */
export const NAMED_HOLDERS = 5;

/**
 * Who holds each role: the first few by name (display name, else e-mail) and how many in all, so that giving a role
 * says whom it is shared with (a change of the role changes all of them).
 */
export async function roleHolders(
  db: Queryable,
  roleIds: readonly number[],
): Promise<Map<number, { holders: string[]; holder_count: number }>> {
  const { rows } = await db.query<{ role_id: number; name: string; total: number }>(
    `SELECT role_id, name, total FROM (
       SELECT role_id, coalesce(display_name, email) AS name, (count(*) OVER (PARTITION BY role_id))::integer AS total,
              row_number() OVER (PARTITION BY role_id ORDER BY lower(coalesce(display_name, email)), user_id) AS n
         FROM users WHERE role_id = ANY($1::int[]) AND NOT lite_officer) AS h
      WHERE n <= $2 ORDER BY role_id, n`,
    [roleIds, NAMED_HOLDERS],
  );
  const byRole = new Map<number, { holders: string[]; holder_count: number }>();
  for (const row of rows) {
    const entry = byRole.get(row.role_id) ?? { holders: [], holder_count: row.total };
    entry.holders.push(row.name);
    byRole.set(row.role_id, entry);
  }
  return byRole;
}

/**
 * What a role grants now, as the escalation checks compare it: its record with its all-locations grants also held at
 * ALL_LOCATIONS (src/permissions/all-locations.ts).
 */
export async function rolePermissionRecord(tx: Queryable, roleId: number): Promise<PermissionRecord | undefined> {
  const role = await findRole(tx, roleId);
  return role && holdings(role.permissions, role.all_locations, []);
}

/** What a role written from `input` would grant, as the escalation checks compare it (see rolePermissionRecord). */
export async function inputHoldings(tx: Queryable, input: RoleInput): Promise<PermissionRecord> {
  return holdings(input.permissions, input.all_locations, await allLocationIds(tx));
}

/** Every (feature, level, location) row of a record, duplicates removed. */
function grantRows(record: PermissionRecord) {
  return FEATURE_CODES.flatMap((feature) =>
    ACCESS_LEVELS.flatMap((level) =>
      [...new Set(record[feature]?.[LEVEL_KEYS[level]] ?? [])].map((locationId) => ({
        feature,
        level,
        location_id: locationId,
      })),
    ),
  );
}

/**
 * Location ids of the record that do not exist, per list (`permissions.pc.a` → message), so the 400 names the list.
 * A superuser role needs no grants; any it lists are still checked.
 */
export async function unknownLocationErrors(db: Queryable, record: PermissionRecord): Promise<Record<string, string>> {
  const wanted = [...new Set(grantRows(record).map((row) => row.location_id))];
  const storable = wanted.filter((id) => id <= MAX_INT_ID);
  const { rows } = await db.query<{ location_id: number }>(
    'SELECT location_id FROM locations WHERE location_id = ANY($1::int[])',
    [storable],
  );
  const known = new Set(rows.map((row) => row.location_id));
  const errors: Record<string, string> = {};
  for (const feature of FEATURE_CODES) {
    for (const level of ACCESS_LEVELS) {
      const key = LEVEL_KEYS[level];
      const missing = (record[feature]?.[key] ?? []).filter((id) => !known.has(id));
      if (missing.length > 0) {
        errors[`permissions.${feature}.${key}`] =
          `No location with id ${[...new Set(missing)].join(', ')}.`;
      }
    }
  }
  return errors;
}

export type RoleWriteResult =
  | { kind: 'ok'; role: Role }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateName'; name: string }
  | { kind: 'invalid'; fieldErrors: Record<string, string> }
  | { kind: 'refused'; verdict: Exclude<EscalationVerdict, { ok: true }> }
  | { kind: 'inUse'; holders: { user_id: number; email: string; display_name: string | null }[]; total: number };

/** What the audit trail keeps of a role: its name, whether it is a superuser role, and its grants. */
function audited(role: Pick<Role, 'name' | 'permissions' | 'all_locations' | 'version'>) {
  return {
    name: role.name,
    superuser: role.permissions.su,
    permissions: role.permissions,
    all_locations: role.all_locations,
    version: role.version,
  };
}

async function nameTaken(tx: Queryable, name: string, exceptId?: number): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM roles WHERE lower(name) = lower($1) AND role_id IS DISTINCT FROM $2', [
    name,
    exceptId ?? null,
  ]);
  return rows.length > 0;
}

async function replaceGrants(tx: Queryable, roleId: number, input: RoleInput): Promise<void> {
  const record = input.permissions;
  // A superuser role passes every check: grants at all locations would add nothing.
  await replaceAllLocations(tx, roleId, record.su ? {} : input.all_locations);
  await tx.query('DELETE FROM role_permissions WHERE role_id = $1', [roleId]);
  await tx.query(
    `INSERT INTO role_permissions (role_id, feature, level, location_id)
     SELECT $1, g.feature, g.level, g.location_id
       FROM json_to_recordset($2::json) AS g(feature text, level text, location_id int)`,
    [roleId, JSON.stringify(grantRows(record))],
  );
}

async function lockedRole(tx: Queryable, roleId: number) {
  if (!Number.isInteger(roleId) || roleId < 1 || roleId > MAX_INT_ID) return undefined;
  const { rows } = await tx.query('SELECT 1 FROM roles WHERE role_id = $1 FOR UPDATE', [roleId]);
  if (rows.length === 0) return undefined;
  const role = (await findRole(tx, roleId))!;
  return { ...role, record: holdings(role.permissions, role.all_locations, []) };
}

async function conflictOf(tx: Queryable, roleId: number, currentVersion: number): Promise<Extract<RoleWriteResult, { kind: 'conflict' }>> {
  return { kind: 'conflict', conflict: { currentVersion, ...(await lastChange(tx, AUDIT_ENTITY_ROLE, roleId)) } };
}

/** Creates a role; the editor must hold every triple it grants (or be a superuser; only they create superuser roles). */
export async function createRole(
  tx: Queryable,
  actor: Actor,
  editor: PermissionRecord,
  input: RoleInput,
): Promise<RoleWriteResult> {
  const fieldErrors = await unknownLocationErrors(tx, input.permissions);
  if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
  const verdict = checkRoleChange(await editorHoldings(tx, actor.userId, editor), null, await inputHoldings(tx, input));
  if (!verdict.ok) return { kind: 'refused', verdict };
  if (await nameTaken(tx, input.name)) return { kind: 'duplicateName', name: input.name };
  const { rows } = await tx.query<{ role_id: number }>(
    'INSERT INTO roles (name, superuser, updated_by) VALUES ($1, $2, $3) RETURNING role_id',
    [input.name, input.permissions.su, actor.userId],
  );
  const roleId = rows[0]!.role_id;
  await replaceGrants(tx, roleId, input);
  const role = (await findRole(tx, roleId))!;
  await writeAudit(tx, {
    actor,
    entity: AUDIT_ENTITY_ROLE,
    entityId: roleId,
    action: 'create',
    before: null,
    after: audited(role),
  });
  return { kind: 'ok', role };
}

/** Renames a role and replaces its grants, from `version`; every triple added or removed must be the editor's. */
export async function updateRole(
  tx: Queryable,
  actor: Actor,
  editor: PermissionRecord,
  roleId: number,
  input: RoleInput & { version: number },
): Promise<RoleWriteResult> {
  const before = await lockedRole(tx, roleId);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, roleId, before.version);
  const fieldErrors = await unknownLocationErrors(tx, input.permissions);
  if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
  const verdict = checkRoleChange(await editorHoldings(tx, actor.userId, editor), before.record, await inputHoldings(tx, input));
  if (!verdict.ok) return { kind: 'refused', verdict };
  if (await nameTaken(tx, input.name, roleId)) return { kind: 'duplicateName', name: input.name };
  await tx.query(
    `UPDATE roles SET name = $2, superuser = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE role_id = $1`,
    [roleId, input.name, input.permissions.su, actor.userId],
  );
  await replaceGrants(tx, roleId, input);
  const role = (await findRole(tx, roleId))!;
  await writeAudit(tx, {
    actor,
    entity: AUDIT_ENTITY_ROLE,
    entityId: roleId,
    action: 'update',
    before: audited(before),
    after: audited(role),
  });
  return { kind: 'ok', role };
}

/** Deletes a role nobody holds (otherwise says who); taking its grants away is a change like any other. */
export async function deleteRole(
  tx: Queryable,
  actor: Actor,
  editor: PermissionRecord,
  roleId: number,
  version: number,
): Promise<Exclude<RoleWriteResult, { kind: 'ok' }> | { kind: 'deleted' }> {
  const before = await lockedRole(tx, roleId);
  if (!before) return { kind: 'notFound' };
  if (before.version !== version) return conflictOf(tx, roleId, before.version);
  const verdict = checkRoleChange(await editorHoldings(tx, actor.userId, editor), before.record, null);
  if (!verdict.ok) return { kind: 'refused', verdict };
  const { rows: holders } = await tx.query<{ user_id: number; email: string; display_name: string | null; total: number }>(
    `SELECT user_id, email, display_name, (count(*) OVER ())::integer AS total
       FROM users WHERE role_id = $1 ORDER BY lower(email) LIMIT 10`,
    [roleId],
  );
  if (holders.length > 0) {
    return {
      kind: 'inUse',
      holders: holders.map(({ total: _total, ...holder }) => holder),
      total: holders[0]!.total,
    };
  }
  await tx.query('DELETE FROM roles WHERE role_id = $1', [roleId]);
  await writeAudit(tx, {
    actor,
    entity: AUDIT_ENTITY_ROLE,
    entityId: roleId,
    action: 'delete',
    before: audited(before),
    after: null,
  });
  return { kind: 'deleted' };
}
