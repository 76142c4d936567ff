import * as z from 'zod/mini';
import { emailAddress } from './email';
import { canonicalIdParam } from './ids';
import { pagedSchema } from './lists';
import { roleInputSchema } from './roles';
import { USER_STATUSES } from './user-search';

export { USER_SORT_KEYS, USER_STATUSES, userListQuerySchema, type UserListQuery, type UserStatus } from './user-search';
export const MAX_DISPLAY_NAME_LENGTH = 120;

const displayName = z.pipe(
  z.string('Enter the name.'),
  z.pipe(
    z.transform((value: string) => value.trim()),
    z.string().check(
      z.minLength(1, 'Enter the name.'),
      z.maxLength(MAX_DISPLAY_NAME_LENGTH, `The name must be at most ${MAX_DISPLAY_NAME_LENGTH} characters.`),
    ),
  ),
);
const email = z.pipe(
  z.string('Enter the e-mail address.'),
  z.pipe(
    z.transform((value: string) => value.trim().toLowerCase()),
    emailAddress('Enter an e-mail address such as name@example.com.'),
  ),
);
const roleId = z.int('Choose a role.').check(z.positive('Choose a role.'));
const versionField = z.int('The version must be a whole number.').check(z.positive('The version must be positive.'));

/** Invite: the account is created with the identity provider, and the person sets a password through a link. */
export const userInviteSchema = z.strictObject({ email, display_name: displayName, role_id: roleId });
export type UserInvite = z.infer<typeof userInviteSchema>;
export const userUpdateSchema = z.strictObject({ display_name: displayName, role_id: roleId, version: versionField });
export type UserUpdate = z.infer<typeof userUpdateSchema>;
/**
 * Save as new role (users edit and user roles add): when one person's access should differ from their role's, a new
 * role with the name the editor types is created and given to them alone, in one transaction; the role they held
 * (and everyone else holding it) is left as it was. Their name is kept.
 */
export const userNewRoleSchema = z.strictObject({ version: versionField, role: roleInputSchema });
export type UserNewRole = z.infer<typeof userNewRoleSchema>;
export const userStatusChangeSchema = z.strictObject({ status: z.enum(USER_STATUSES), version: versionField });
export type UserStatusChange = z.infer<typeof userStatusChangeSchema>;
/** Delete, from the version the user saw: only someone who never signed in and never changed anything. */
export const userDeleteSchema = z.strictObject({ version: versionField });
export const userDeletedSchema = z.object({ deleted: z.literal(true) });

export const userSchema = z.object({
  user_id: z.int().check(z.positive()),
  email: z.string(),
  display_name: z.nullable(z.string()),
  role_id: z.nullable(z.int()),
  role_name: z.nullable(z.string()),
  role_superuser: z.boolean(),
  /** Every location the role grants anything at (empty for a superuser role: it covers all). */
  location_ids: z.array(z.int()),
  /** The same locations by name, in name order. */
  location_names: z.array(z.string()),
  status: z.enum(USER_STATUSES),
  last_sign_in_at: z.nullable(z.string()),
  /** Whether a sign-in account is bound to the row (false until the invited person first signs in, or re-linked). */
  linked: z.boolean(),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type StaffUser = z.infer<typeof userSchema>;

export const invitedUserSchema = z.object({
  user: userSchema,
  /** The link where the invited person sets their password (locally: the Auth emulator's page). */
  setPasswordLink: z.string(),
});

/**
 * The roles an editor may give (GET /users/assignable-roles): those granting nothing the editor does not hold, each
 * with who holds it already (the first few names, and how many in all): a role is shared, so the form says with whom.
 */
export const assignableRolesSchema = z.array(
  z.object({
    role_id: z.int().check(z.positive()),
    name: z.string(),
    superuser: z.boolean(),
    holders: z.array(z.string()),
    holder_count: z.int().check(z.nonnegative()),
  }),
);
export type AssignableRole = z.infer<typeof assignableRolesSchema>[number];

export const USERS_PATH = '/users';
export const USERS_ASSIGNABLE_ROLES_PATH = '/users/assignable-roles';
export const USERS_EXPORT_PATH = '/users/export';
export const userNewRolePath = (userId: number) => `${USERS_PATH}/${userId}/new-role`;
export const userPageSchema = pagedSchema(userSchema);
export const userParamsSchema = z.object({ userId: canonicalIdParam() });
