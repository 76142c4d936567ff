import {
  USERS_ASSIGNABLE_ROLES_PATH,
  USERS_EXPORT_PATH,
  assignableRolesSchema,
  USERS_PATH,
  invitedUserSchema,
  userInviteSchema,
  userListQuerySchema,
  userPageSchema,
  userParamsSchema,
  userSchema,
  userDeletedSchema,
  userDeleteSchema,
  userStatusChangeSchema,
  userNewRoleSchema,
  userUpdateSchema,
  type StaffUser,
} from '../../src/contract/users';
import { mayGiveRole } from '../../src/permissions/escalation';
import { hasPermission } from '../../src/permissions/rules';
import type { StaffAccounts } from '../auth/staff-accounts';
import type { Queryable } from '../db/db';
import { listRolesPage, roleHolders } from '../db/roles';
import { AUDIT_ENTITY_USER } from '../db/staff-identity';
import {
  checkInvite,
  deleteUser,
  findUser,
  inviteUser,
  listUsersPage,
  saveUserWithNewRole,
  setUserStatus,
  updateUser,
  userBatches,
  type Editor,
  type UserWriteResult,
} from '../db/users';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { conflict, fieldProblems, notFound, ok, refused, versionConflict, type Outcome, type Refusal } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';
import { refusalMessage } from './roles';

const CSV_HEADER = ['User ID', 'E-mail', 'Name', 'Role', 'Locations', 'Status', 'Last sign-in (UTC)'];
const csvRow = (user: StaffUser) => [
  user.user_id,
  user.email,
  user.display_name ?? '',
  user.role_name ?? '',
  user.role_superuser ? 'All locations' : user.location_names.join('; '),
  user.status,
  user.last_sign_in_at ?? '',
];


const missing = (userId: number | null) => notFound(`User ${userId} does not exist.`);

/** Why the repository refused a write, as the API says it (a no-escalation refusal names the locations). */
async function refusalOf(db: Queryable, userId: number | null, result: Exclude<UserWriteResult, { kind: 'ok' }>): Promise<Refusal> {
  switch (result.kind) {
    case 'notFound':
      return missing(userId);
    case 'duplicateEmail':
      return fieldProblems({ email: `${result.email} is a staff member already.` });
    case 'unknownRole':
      return fieldProblems({ role_id: `Role ${result.roleId} does not exist.` });
    case 'refused':
      return refused(await refusalMessage(db, result.verdict, 'user'));
    case 'hasHistory':
      return conflict(`User ${userId} has signed in or changed something, so they cannot be deleted; disable them instead.`);
    case 'conflict':
      return versionConflict(`User ${userId}`, result.conflict);
  }
}

const written = async (db: Queryable, userId: number | null, result: UserWriteResult): Promise<Outcome<StaffUser>> =>
  result.kind === 'ok' ? ok(result.user) : refusalOf(db, userId, result);

const editorOf = ({ staff }: Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'staff'>): Editor => ({
  userId: staff.userId,
  email: staff.email,
  record: staff.record,
});

/**
 * Staff members (users view) and their invitation (users add), edit and disable / enable (users edit). Every staff
 * member is listed to anyone with users view: roles are not tied to one location, and what protects the console is
 * that a change may only move permissions the editor holds (src/permissions/escalation.ts).
 */
export function registerUserRoutes(app: ApiApp, deps: RouteDeps, staffAccounts: StaffAccounts | undefined): void {
  const section = serverSection(app, deps, { tag: 'users', feature: 'u', records: 'users' });

  // The export is registered before /users/{userId}, which would otherwise take "export" for an id.
  section.list({
    path: USERS_PATH,
    summary: 'Staff members, searched, filtered, sorted and paged on the server (users view)',
    query: userListQuerySchema,
    page: userPageSchema,
    read: ({ db, query }, window) => listUsersPage(db, query, window),
    csv: {
      path: USERS_EXPORT_PATH,
      summary: 'Every staff member the list shows for these filters, as CSV (streamed)',
      name: 'users',
      header: CSV_HEADER,
      batches: ({ db, query }) => userBatches(db, query),
      row: csvRow,
    },
  });

  section.route({
    method: 'get',
    path: USERS_ASSIGNABLE_ROLES_PATH,
    summary: 'The roles this user may give to staff (users add or edit): those granting only what they hold',
    // Add or edit: no single level, so the handler decides (the route reads no input a refusal could reveal).
    access: 'signedIn',
    data: assignableRolesSchema,
    answers: 'Roles by name',
    handle: async ({ db, staff, record }) => {
      if (!hasPermission(record, 'u', 'add') && !hasPermission(record, 'u', 'edit')) {
        return refused('You do not have permission to invite or edit users.');
      }
      const roles = (await listRolesPage(db, {}, { page: 1, pageSize: 10_000 })).rows.filter((role) => mayGiveRole(staff, role));
      // Holders are staff members: users add or edit includes users view, which lists them all anyway.
      const held = await roleHolders(db, roles.map((role) => role.role_id));
      return ok(
        roles.map((role) => ({
          role_id: role.role_id,
          name: role.name,
          superuser: role.superuser,
          ...(held.get(role.role_id) ?? { holders: [], holder_count: 0 }),
        })),
      );
    },
  });

  section.route({
    method: 'post',
    path: USERS_PATH,
    summary: 'Invites a staff member (users add): creates the sign-in account and returns the set-password link',
    access: { level: 'add', refusal: 'You do not have permission to invite users.' },
    body: userInviteSchema,
    data: invitedUserSchema,
    answers: 'The new staff member and the link',
    errors: [409],
    // Not `writes`: the sign-in account is created at the identity provider between the check and the row, and no
    // transaction is held open across that call.
    handle: async (request) => {
      const { body } = request;
      const editor = editorOf(request);
      // Checked before the identity provider creates anything, and again in the transaction that writes the row.
      const refusal = await checkInvite(deps.db, editor, body);
      if (refusal) return refusalOf(deps.db, null, refusal);
      if (!staffAccounts) return conflict('This server runs without an identity provider, so it cannot invite anyone.');
      const account = await staffAccounts.invite({ email: body.email, displayName: body.display_name });
      const result = await deps.db.transaction((tx) => inviteUser(tx, editor, body, account.uid, request.now));
      if (result.kind !== 'ok') return refusalOf(deps.db, null, result);
      return ok({ user: result.user, setPasswordLink: account.setPasswordLink });
    },
  });

  section.route({
    method: 'get',
    path: `${USERS_PATH}/{userId}`,
    summary: 'One staff member (users view)',
    access: { level: 'view' },
    params: userParamsSchema,
    data: userSchema,
    answers: 'The staff member',
    errors: [404],
    handle: async ({ db, params: { userId } }) => {
      const user = await findUser(db, userId);
      return user ? ok(user) : missing(userId);
    },
  });

  section.history({
    path: `${USERS_PATH}/{userId}/history`,
    summary: "The staff member's audit trail, newest first (users view)",
    params: userParamsSchema,
    trail: ({ userId }) => ({ entity: AUDIT_ENTITY_USER, id: userId }),
  });

  section.route({
    method: 'post',
    path: `${USERS_PATH}/{userId}`,
    summary: 'Saves name and role from `version` (users edit; no escalation, not one\'s own role); 409 if it changed',
    access: { level: 'edit' },
    params: userParamsSchema,
    body: userUpdateSchema,
    data: userSchema,
    answers: 'The saved staff member',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { db, params, body } = request;
      return written(db, params.userId, await updateUser(db, editorOf(request), params.userId, body));
    },
  });

  section.route({
    method: 'post',
    path: `${USERS_PATH}/{userId}/new-role`,
    summary:
      'Save as new role (users edit and user roles add): creates the named role and gives it to this user only, from `version`',
    access: { level: 'edit' },
    params: userParamsSchema,
    body: userNewRoleSchema,
    data: userSchema,
    answers: 'The saved staff member, holding the new role',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { db, params, body, record } = request;
      if (!hasPermission(record, 'ur', 'add')) return refused('You do not have permission to add roles.');
      const result = await saveUserWithNewRole(db, editorOf(request), params.userId, body);
      // The role's own refusals name the role's fields, as the request nests them.
      if (result.kind === 'duplicateName') {
        return fieldProblems({ 'role.name': `A role named "${result.name}" already exists (names ignore case).` });
      }
      if (result.kind === 'invalid') {
        return fieldProblems(Object.fromEntries(Object.entries(result.fieldErrors).map(([key, message]) => [`role.${key}`, message])));
      }
      if (result.kind === 'inUse') throw new Error('creating a role cannot find it in use');
      return written(db, params.userId, result);
    },
  });

  section.route({
    method: 'post',
    path: `${USERS_PATH}/{userId}/status`,
    summary: "Disables or enables a staff member (users edit; not oneself); a disabled user's next call is refused",
    access: { level: 'edit' },
    params: userParamsSchema,
    body: userStatusChangeSchema,
    data: userSchema,
    answers: 'The staff member',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { db, params, body } = request;
      return written(db, params.userId, await setUserStatus(db, editorOf(request), params.userId, body));
    },
  });

  section.route({
    method: 'post',
    path: `${USERS_PATH}/{userId}/delete`,
    summary: 'Deletes an invitation: someone who never signed in nor changed anything (users delete; not oneself)',
    access: { level: 'delete' },
    params: userParamsSchema,
    body: userDeleteSchema,
    data: userDeletedSchema,
    answers: 'Deleted',
    errors: [404, 409],
    // Not `writes`: the sign-in account is removed after the row's deletion has committed.
    handle: async (request) => {
      const { userId } = request.params;
      const result = await deps.db.transaction((tx) => deleteUser(tx, editorOf(request), userId, request.body.version));
      if (result.kind !== 'deleted') return refusalOf(deps.db, userId, result);
      // The row is gone, so the account could sign in to nothing; removing it keeps the provider tidy.
      if (result.identityUid && staffAccounts) await staffAccounts.remove(result.identityUid);
      return ok({ deleted: true as const });
    },
  });
}
