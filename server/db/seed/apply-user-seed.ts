import { createHash } from 'node:crypto';
import { ACCESS_LEVELS, FEATURE_CODES, LEVEL_KEYS } from '../../../src/permissions/features';
import type { Db, Queryable } from '../db';
import { relinkStaffIdentity, type CreateIdentity } from '../staff-identity';
import { describeIssues } from '../../http/zod-issues';
import { accessSignature, SeedFileError, seedUsersFileSchema, type SeedUser, type SeedUserInput } from './user-seed-file';

/**
 * The seeded user's sign-in account, and their staff row bound to it. The seed stands in for the administrator here:
 * the emulator forgets its accounts when it stops, so every start re-creates them with new uids and re-links the rows
 * (audited like any re-link). Rows already bound to the account are not touched.
 */
export async function seedIdentity(db: Db, createIdentity: CreateIdentity, user: SeedUser): Promise<void> {
  const { uid } = await createIdentity(user);
  await relinkStaffIdentity(db, { email: user.email, uid, actor: null, now: new Date() });
}

export interface ApplyUserSeedOptions {
  createIdentity?: CreateIdentity | undefined;
  /** Names the origin of the users in error messages (a file name, "demo accounts"). */
  source?: string;
}

/**
 * The role a seeded user holds: the one the file names (a job, "Finance"), shared by everyone naming it; without a
 * name, one named after the access itself, shared by everyone seeded with the same access. Never the person's name:
 * a role named after one person is silently shared by the next one given it (docs/users-and-roles.md).
 */
export function seedRoleName(user: Pick<SeedUser, 'role' | 'permissions' | 'allLocations'>): string {
  if (user.role !== undefined) return user.role;
  const digest = createHash('sha256').update(accessSignature(user.permissions, user.allLocations)).digest('hex').slice(0, 8);
  return `Seeded access ${digest}`;
}

/** The roles older seeds created, one per person ("user:<e-mail>"): gone once nobody holds them. */
async function dropPersonalSeedRoles(tx: Queryable): Promise<void> {
  await tx.query(
    `DELETE FROM roles r WHERE r.name LIKE 'user:%@%' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.role_id = r.role_id)`,
  );
}

function unknownLocationProblems(users: readonly SeedUser[], knownIds: ReadonlySet<number>): string[] {
  const problems: string[] = [];
  users.forEach((user, index) => {
    for (const feature of FEATURE_CODES) {
      const grant = user.permissions[feature];
      if (!grant) continue;
      for (const level of ACCESS_LEVELS) {
        const key = LEVEL_KEYS[level];
        const missing = grant[key].filter((id) => !knownIds.has(id));
        if (missing.length > 0) {
          problems.push(`[${index}].permissions.${feature}.${key}: no location with id ${missing.join(', ')}`);
        }
      }
    }
  });
  return problems;
}

/** Re-applying a seed writes only what differs: no churn of updated_at, grants or (later) audit rows. */
async function upsertSeedUser(tx: Queryable, user: SeedUser): Promise<void> {
  // Names ignore case (roles_name_lower_key), so "finance" in a file is the console's "Finance".
  await tx.query(
    `INSERT INTO roles (name, superuser) VALUES ($1, $2)
     ON CONFLICT ((lower(name))) DO UPDATE SET superuser = EXCLUDED.superuser, updated_at = now()
       WHERE roles.superuser IS DISTINCT FROM EXCLUDED.superuser`,
    [seedRoleName(user), user.permissions.su],
  );
  const { rows } = await tx.query<{ role_id: number }>('SELECT role_id FROM roles WHERE lower(name) = lower($1)', [
    seedRoleName(user),
  ]);
  const roleId = rows[0]!.role_id;
  // The file is the whole truth about the roles it names: grants it no longer lists go, new ones come, the rest stay.
  const grants = FEATURE_CODES.flatMap((feature) =>
    ACCESS_LEVELS.flatMap((level) =>
      [...new Set(user.permissions[feature]?.[LEVEL_KEYS[level]] ?? [])].map((locationId) => ({
        feature,
        level,
        location_id: locationId,
      })),
    ),
  );
  const wanted = JSON.stringify(grants);
  await tx.query(
    `DELETE FROM role_permissions p
      WHERE p.role_id = $1
        AND NOT EXISTS (SELECT 1 FROM json_to_recordset($2::json) AS g(feature text, level text, location_id int)
                         WHERE g.feature = p.feature AND g.level = p.level AND g.location_id = p.location_id)`,
    [roleId, wanted],
  );
  await tx.query(
    `INSERT INTO role_permissions (role_id, feature, level, location_id)
     SELECT $1, g.feature, g.level, g.location_id
       FROM json_to_recordset($2::json) AS g(feature text, level text, location_id int)
     ON CONFLICT DO NOTHING`,
    [roleId, wanted],
  );
  // Grants at all locations, now and later (migration 023), the same way: only what differs is written.
  const wide = JSON.stringify(user.permissions.su ? {} : (user.allLocations ?? {}));
  await tx.query(
    `DELETE FROM role_all_locations a
      WHERE a.role_id = $1 AND NOT EXISTS (SELECT 1 FROM json_each_text($2::json) AS g WHERE g.key = a.feature AND g.value = a.level)`,
    [roleId, wide],
  );
  await tx.query(
    `INSERT INTO role_all_locations (role_id, feature, level)
     SELECT $1, g.key, g.value FROM json_each_text($2::json) AS g
     ON CONFLICT DO NOTHING`,
    [roleId, wide],
  );
  await tx.query(
    `INSERT INTO users (email, display_name, role_id) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO UPDATE
       SET display_name = COALESCE(EXCLUDED.display_name, users.display_name), role_id = EXCLUDED.role_id,
           updated_at = now()
     WHERE (COALESCE(EXCLUDED.display_name, users.display_name), EXCLUDED.role_id)
           IS DISTINCT FROM (users.display_name, users.role_id)`,
    [user.email, user.displayName ?? null, roleId],
  );
}

/**
 * Upserts users, each with its own role and grants, in one transaction (all or nothing), then, when asked, their
 * sign-in accounts, linked to their rows. Idempotent: applying the same users twice changes nothing.
 */
export async function applyUserSeed(
  db: Db,
  users: readonly SeedUserInput[],
  options: ApplyUserSeedOptions = {},
): Promise<SeedUser[]> {
  const source = options.source ?? 'seed users';
  const parsed = seedUsersFileSchema.safeParse(users);
  if (!parsed.success) {
    throw new SeedFileError(source, describeIssues(parsed.error.issues));
  }
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ location_id: number }>('SELECT location_id FROM locations');
    const problems = unknownLocationProblems(parsed.data, new Set(rows.map((row) => row.location_id)));
    if (problems.length > 0) throw new SeedFileError(source, problems, 'grants locations that do not exist');
    for (const user of parsed.data) await upsertSeedUser(tx, user);
    await dropPersonalSeedRoles(tx);
  });
  if (options.createIdentity) {
    for (const user of parsed.data) await seedIdentity(db, options.createIdentity, user);
  }
  return parsed.data;
}
