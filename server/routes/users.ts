import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
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
import { checkRoleChange } from '../../src/permissions/escalation';
import { hasPermission } from '../../src/permissions/rules';
import type { StaffAccounts } from '../auth/staff-accounts';
import { listHistory } from '../db/audit';
import { pageBeyondLimit } from '../db/paging';
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
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';
import { refusalMessage } from './roles';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

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


async function writeResponse(c: Context<StaffEnv>, deps: RouteDeps, userId: number | null, result: UserWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.user }, 200);
    case 'notFound':
      return c.json(failure(`User ${userId} does not exist.`), 404);
    case 'duplicateEmail':
      return c.json(invalidFields({ email: `${result.email} is a staff member already.` }), 400);
    case 'unknownRole':
      return c.json(invalidFields({ role_id: `Role ${result.roleId} does not exist.` }), 400);
    case 'refused':
      return c.json(failure(await refusalMessage(deps.db, result.verdict, 'user')), 403);
    case 'hasHistory':
      return c.json(
        failure(`User ${userId} has signed in or changed something, so they cannot be deleted; disable them instead.`),
        409,
      );
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      const when = changedAt ? ` at ${changedAt}` : '';
      return c.json(
        conflictFailure(
          `User ${userId} was changed by ${who}${when} after you opened it. Reload to see their version; nothing was saved.`,
          result.conflict,
        ),
        409,
      );
    }
  }
}

/**
 * Staff members (users view) and their invitation (users add), edit and disable / enable (users edit). Every staff
 * member is listed to anyone with users view: roles are not tied to one location, and what protects the console is
 * that a change may only move permissions the editor holds (src/permissions/escalation.ts).
 */
export function registerUserRoutes(app: ApiApp, deps: RouteDeps, staffAccounts: StaffAccounts | undefined): void {
  const staffSession = requireStaffSession(deps);
  const editorOf = (c: Context<StaffEnv>): Editor => {
    const staff = c.get('staff');
    return { userId: staff.userId, email: staff.email, record: staff.record };
  };
  const refuse = (c: Context<StaffEnv>, action: string) =>
    c.json(failure(`You do not have permission to ${action} users.`), 403);

  const list = createRoute({
    method: 'get',
    path: USERS_PATH,
    tags: ['users'],
    summary: 'Staff members, searched, filtered, sorted and paged on the server (users view)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(userListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(userPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'view')) return refuse(c, 'view');
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    return c.json({ success: true as const, data: await listUsersPage(deps.db, query, window) }, 200);
  });

  // Registered before /users/{userId}, which would otherwise take "export" for an id.
  const exportCsv = createRoute({
    method: 'get',
    path: USERS_EXPORT_PATH,
    tags: ['users'],
    summary: 'Every staff member the list shows for these filters, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(userListQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'view')) return refuse(c, 'view');
    const batches = userBatches(deps.db, c.req.valid('query'));
    return csvResponse(c, {
      fileName: csvFileName('users', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const assignable = createRoute({
    method: 'get',
    path: USERS_ASSIGNABLE_ROLES_PATH,
    tags: ['users'],
    summary: 'The roles this user may give to staff (users add or edit): those granting only what they hold',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'Roles by name', content: json(responseSchema(successEnvelope(assignableRolesSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(assignable, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'u', 'add') && !hasPermission(record, 'u', 'edit')) return refuse(c, 'invite or edit');
    const roles = (await listRolesPage(deps.db, {}, { page: 1, pageSize: 10_000 })).rows.filter(
      (role) => checkRoleChange(record, null, role.permissions).ok,
    );
    // Holders are staff members: users add or edit includes users view, which lists them all anyway.
    const held = await roleHolders(deps.db, roles.map((role) => role.role_id));
    const data = roles.map((role) => ({
      role_id: role.role_id,
      name: role.name,
      superuser: role.superuser,
      ...(held.get(role.role_id) ?? { holders: [], holder_count: 0 }),
    }));
    return c.json({ success: true as const, data }, 200);
  });

  const invite = createRoute({
    method: 'post',
    path: USERS_PATH,
    tags: ['users'],
    summary: 'Invites a staff member (users add): creates the sign-in account and returns the set-password link',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(userInviteSchema)) } },
    responses: {
      200: { description: 'The new staff member and the link', content: json(responseSchema(successEnvelope(invitedUserSchema))) },
      ...errorResponses(400, 401, 403, 409),
    },
  });
  app.openapi(invite, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'add')) return refuse(c, 'invite');
    const input = c.req.valid('json');
    const editor = editorOf(c);
    // Checked before the identity provider creates anything, and again in the transaction that writes the row.
    const refused = await checkInvite(deps.db, editor, input);
    if (refused) return (await writeResponse(c, deps, null, refused)) as never;
    if (!staffAccounts) {
      return c.json(failure('This server runs without an identity provider, so it cannot invite anyone.'), 409);
    }
    const account = await staffAccounts.invite({ email: input.email, displayName: input.display_name });
    const result = await deps.db.transaction((tx) => inviteUser(tx, editor, input, account.uid, deps.now()));
    if (result.kind !== 'ok') return (await writeResponse(c, deps, null, result)) as never;
    return c.json({ success: true as const, data: { user: result.user, setPasswordLink: account.setPasswordLink } }, 200);
  });

  const detail = createRoute({
    method: 'get',
    path: `${USERS_PATH}/{userId}`,
    tags: ['users'],
    summary: 'One staff member (users view)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(userParamsSchema) },
    responses: {
      200: { description: 'The staff member', content: json(responseSchema(successEnvelope(userSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'view')) return refuse(c, 'view');
    const { userId } = c.req.valid('param');
    const user = await findUser(deps.db, userId);
    if (!user) return c.json(failure(`User ${userId} does not exist.`), 404);
    return c.json({ success: true as const, data: user }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${USERS_PATH}/{userId}/history`,
    tags: ['users'],
    summary: "The staff member's audit trail, newest first (users view)",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(userParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(history, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'view')) return refuse(c, 'view');
    const { userId } = c.req.valid('param');
    return c.json({ success: true as const, data: await listHistory(deps.db, AUDIT_ENTITY_USER, userId) }, 200);
  });

  const update = createRoute({
    method: 'post',
    path: `${USERS_PATH}/{userId}`,
    tags: ['users'],
    summary: 'Saves name and role from `version` (users edit; no escalation, not one\'s own role); 409 if it changed',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(userParamsSchema),
      body: { required: true, content: json(requestSchema(userUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved staff member', content: json(responseSchema(successEnvelope(userSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(update, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'edit')) return refuse(c, 'edit');
    const { userId } = c.req.valid('param');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateUser(tx, editorOf(c), userId, input));
    return (await writeResponse(c, deps, userId, result)) as never;
  });

  const newRole = createRoute({
    method: 'post',
    path: `${USERS_PATH}/{userId}/new-role`,
    tags: ['users'],
    summary:
      'Save as new role (users edit and user roles add): creates the named role and gives it to this user only, from `version`',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(userParamsSchema),
      body: { required: true, content: json(requestSchema(userNewRoleSchema)) },
    },
    responses: {
      200: { description: 'The saved staff member, holding the new role', content: json(responseSchema(successEnvelope(userSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(newRole, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'u', 'edit')) return refuse(c, 'edit');
    if (!hasPermission(record, 'ur', 'add')) return c.json(failure('You do not have permission to add roles.'), 403);
    const { userId } = c.req.valid('param');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => saveUserWithNewRole(tx, editorOf(c), userId, input));
    // The role's own refusals name the role's fields, as the request nests them.
    if (result.kind === 'duplicateName') {
      return c.json(invalidFields({ 'role.name': `A role named "${result.name}" already exists (names ignore case).` }), 400);
    }
    if (result.kind === 'invalid') {
      return c.json(invalidFields(Object.fromEntries(Object.entries(result.fieldErrors).map(([key, message]) => [`role.${key}`, message]))), 400);
    }
    if (result.kind === 'inUse') throw new Error('creating a role cannot find it in use');
    return (await writeResponse(c, deps, userId, result)) as never;
  });

  const status = createRoute({
    method: 'post',
    path: `${USERS_PATH}/{userId}/status`,
    tags: ['users'],
    summary: 'Disables or enables a staff member (users edit; not oneself); a disabled user\'s next call is refused',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(userParamsSchema),
      body: { required: true, content: json(requestSchema(userStatusChangeSchema)) },
    },
    responses: {
      200: { description: 'The staff member', content: json(responseSchema(successEnvelope(userSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(status, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'edit')) return refuse(c, 'edit');
    const { userId } = c.req.valid('param');
    const change = c.req.valid('json');
    const result = await deps.db.transaction((tx) => setUserStatus(tx, editorOf(c), userId, change));
    return (await writeResponse(c, deps, userId, result)) as never;
  });

  const remove = createRoute({
    method: 'post',
    path: `${USERS_PATH}/{userId}/delete`,
    tags: ['users'],
    summary: 'Deletes an invitation: someone who never signed in nor changed anything (users delete; not oneself)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(userParamsSchema),
      body: { required: true, content: json(requestSchema(userDeleteSchema)) },
    },
    responses: {
      200: { description: 'Deleted', content: json(responseSchema(successEnvelope(userDeletedSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(remove, async (c) => {
    if (!hasPermission(c.get('staff').record, 'u', 'delete')) return refuse(c, 'delete');
    const { userId } = c.req.valid('param');
    const { version } = c.req.valid('json');
    const result = await deps.db.transaction((tx) => deleteUser(tx, editorOf(c), userId, version));
    if (result.kind !== 'deleted') return (await writeResponse(c, deps, userId, result)) as never;
    // After the commit: the row is gone, so the account could sign in to nothing; removing it keeps the provider tidy.
    if (result.identityUid && staffAccounts) await staffAccounts.remove(result.identityUid);
    return c.json({ success: true as const, data: { deleted: true as const } }, 200);
  });
}
