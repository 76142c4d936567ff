import { holdings, type AllLocations } from '../../src/permissions/all-locations';
import type { PermissionRecord } from '../../src/permissions/features';
import type { Queryable } from './db';

/**
 * Grants at all locations, now and later (migration 023, src/permissions/all-locations.ts): their rows, and what
 * the no-escalation check compares.
 */

/** Every location such a grant reaches today: the full offering's (Enforcement Lite's are another product). */
export async function allLocationIds(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ location_id: number }>(
    "SELECT location_id FROM locations WHERE offering = 'full' ORDER BY location_id",
  );
  return rows.map((row) => row.location_id);
}

/** Each role's all-locations grants (roles without any are absent). */
export async function allLocationsOfRoles(db: Queryable, roleIds: readonly number[]): Promise<Map<number, AllLocations>> {
  const { rows } = await db.query<{ role_id: number; feature: keyof AllLocations; level: NonNullable<AllLocations['pc']> }>(
    'SELECT role_id, feature, level FROM role_all_locations WHERE role_id = ANY($1::int[])',
    [roleIds],
  );
  const byRole = new Map<number, AllLocations>();
  for (const row of rows) byRole.set(row.role_id, { ...byRole.get(row.role_id), [row.feature]: row.level });
  return byRole;
}

export async function replaceAllLocations(tx: Queryable, roleId: number, allLocations: AllLocations): Promise<void> {
  await tx.query('DELETE FROM role_all_locations WHERE role_id = $1', [roleId]);
  await tx.query(
    `INSERT INTO role_all_locations (role_id, feature, level)
     SELECT $1, g.key, g.value FROM json_each_text($2::json) AS g`,
    [roleId, JSON.stringify(allLocations)],
  );
}

/**
 * What an editor holds, for the no-escalation check: their record and their role's all-locations grants, read now
 * (in the caller's transaction), each also held at ALL_LOCATIONS.
 */
export async function editorHoldings(tx: Queryable, userId: number, record: PermissionRecord): Promise<PermissionRecord> {
  if (record.su) return record;
  const { rows } = await tx.query<{ role_id: number }>(
    'SELECT role_id FROM users WHERE user_id = $1 AND role_id IS NOT NULL',
    [userId],
  );
  const roleId = rows[0]?.role_id;
  if (roleId === undefined) return record;
  const allLocations = (await allLocationsOfRoles(tx, [roleId])).get(roleId) ?? {};
  return holdings(record, allLocations, await allLocationIds(tx));
}
