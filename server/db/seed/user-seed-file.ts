import { z } from 'zod';
import { fitsRfc5321 } from '../../../src/contract/email';
import { MAX_ROLE_NAME_LENGTH } from '../../../src/contract/roles';
import {
  ACCESS_LEVELS,
  FEATURE_CODES,
  LEVEL_KEYS,
  permissionRecordSchema,
  type PermissionRecord,
} from '../../../src/permissions/features';
import { describeIssues } from '../../http/zod-issues';

/**
 * Extra development accounts, beyond the demo ones: a JSON array of users, each with the name of the role it holds
 * (named for a job, shared by everyone in the file who names it) and that role's permission record. Without `role`,
 * the role is named after the access itself (seedRoleName), never after the person. Password length follows the
 * identity provider's default policy (spec §5: at least 6).
 */
export const seedUserSchema = z
  .object({
    email: z
      .email()
      .refine(fitsRfc5321, 'is longer than RFC 5321 allows (64 characters before the @, 254 in all)')
      .transform((email) => email.toLowerCase()),
    password: z.string().min(6, 'must be at least 6 characters (the identity provider rejects shorter ones)'),
    displayName: z.string().trim().min(1).max(200).optional(),
    role: z.string().trim().min(1).max(MAX_ROLE_NAME_LENGTH).optional(),
    permissions: permissionRecordSchema,
    /** Per feature, the level the role holds at all locations, now and later (docs/users-and-roles.md). */
    allLocations: z.partialRecord(z.enum(FEATURE_CODES), z.enum(ACCESS_LEVELS)).optional(),
  })
  .strict();
export type SeedUser = z.output<typeof seedUserSchema>;
export type SeedUserInput = z.input<typeof seedUserSchema>;

/** What a permission record grants, as one canonical string: equal grants, equal strings (ids sorted, no repeats). */
export function accessSignature(record: PermissionRecord, allLocations: SeedUser['allLocations'] = {}): string {
  const grants = FEATURE_CODES.map((feature) =>
    ACCESS_LEVELS.map((level) => [...new Set(record[feature]?.[LEVEL_KEYS[level]] ?? [])].sort((a, b) => a - b)),
  );
  // Only when there are any, so that the signatures (and seeded role names) of files without them stay as they were.
  const wide = FEATURE_CODES.flatMap((feature) => (allLocations[feature] ? [[feature, allLocations[feature]]] : []));
  return JSON.stringify(wide.length > 0 ? [record.su, grants, wide] : [record.su, grants]);
}

export const seedUsersFileSchema = z.array(seedUserSchema).superRefine((users, ctx) => {
  const seen = new Map<string, number>();
  users.forEach((user, index) => {
    const first = seen.get(user.email);
    if (first === undefined) seen.set(user.email, index);
    else ctx.addIssue({ code: 'custom', path: [index, 'email'], message: `duplicates the e-mail of [${first}]` });
  });
  // A role is one set of permissions: users naming the same role must agree on what it grants.
  const roles = new Map<string, { index: number; permissions: string }>();
  users.forEach((user, index) => {
    if (user.role === undefined) return;
    const key = user.role.toLowerCase();
    const permissions = accessSignature(user.permissions, user.allLocations);
    const first = roles.get(key);
    if (!first) roles.set(key, { index, permissions });
    else if (first.permissions !== permissions) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'permissions'],
        message: `differ from those of [${first.index}], which holds the same role "${user.role}"`,
      });
    }
  });
});

export class SeedFileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
    summary = 'is not a valid seed-users file',
  ) {
    super(`${source} ${summary}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'SeedFileError';
  }
}

/** Parses the text of a seed-users file; throws SeedFileError naming every problem with its path. */
export function parseSeedUsersFile(text: string, source: string): SeedUser[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SeedFileError(source, [`not valid JSON (${(error as Error).message})`]);
  }
  const result = seedUsersFileSchema.safeParse(json);
  if (result.success) return result.data;
  throw new SeedFileError(source, describeIssues(result.error.issues));
}
