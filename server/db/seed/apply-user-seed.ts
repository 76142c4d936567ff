import { ACCESS_LEVELS, FEATURE_CODES, LEVEL_KEYS } from '../../../src/permissions/features';
import type { Db, Queryable } from '../db';
import { describeIssues } from '../../zod-issues';
import { SeedFileError, seedUsersFileSchema, type SeedUser, type SeedUserInput } from './user-seed-file';

/** Creates or updates the sign-in account of a seeded user at the identity provider (the Auth emulator in dev). */
export type CreateIdentity = (account: {
  email: string;
  password: string;
  displayName?: string | undefined;
}) => Promise<void>;

export interface ApplyUserSeedOptions {
  createIdentity?: CreateIdentity | undefined;
  /** Names the origin of the users in error messages (a file name, "demo accounts"). */
  source?: string;
}

/** Each seeded user gets a role of its own, named after it, so re-applying a file only touches that user's grants. */
export function seedRoleName(email: string): string {
  return `user:${email}`;
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

async function upsertSeedUser(tx: Queryable, user: SeedUser): Promise<void> {
  const { rows } = await tx.query<{ role_id: number }>(
    `INSERT INTO roles (name, superuser) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET superuser = EXCLUDED.superuser, updated_at = now()
     RETURNING role_id`,
    [seedRoleName(user.email), user.permissions.su],
  );
  const roleId = rows[0]!.role_id;
  // The file is the whole truth about this role: replace its grants rather than merging them.
  await tx.query('DELETE FROM role_permissions WHERE role_id = $1', [roleId]);
  const grants = FEATURE_CODES.flatMap((feature) =>
    ACCESS_LEVELS.flatMap((level) =>
      [...new Set(user.permissions[feature]?.[LEVEL_KEYS[level]] ?? [])].map((locationId) => [
        feature,
        level,
        locationId,
      ]),
    ),
  );
  if (grants.length > 0) {
    const values = grants.map((_, i) => `($1, $${i * 3 + 2}, $${i * 3 + 3}, $${i * 3 + 4})`).join(', ');
    await tx.query(`INSERT INTO role_permissions (role_id, feature, level, location_id) VALUES ${values}`, [
      roleId,
      ...grants.flat(),
    ]);
  }
  await tx.query(
    `INSERT INTO users (email, display_name, role_id) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO UPDATE
       SET display_name = COALESCE(EXCLUDED.display_name, users.display_name), role_id = EXCLUDED.role_id,
           updated_at = now()`,
    [user.email, user.displayName ?? null, roleId],
  );
}

/**
 * Upserts users, each with its own role and grants, in one transaction (all or nothing), then, when asked, their
 * sign-in accounts. Idempotent: applying the same users twice leaves the same rows.
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
  });
  if (options.createIdentity) {
    for (const user of parsed.data) await options.createIdentity(user);
  }
  return parsed.data;
}
