import { MAX_INT_ID } from '../../src/contract/ids';
import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type { StaffUser, UserInvite, UserListQuery, UserNewRole, UserStatus, UserUpdate } from '../../src/contract/users';
import { checkUserChange, type EscalationVerdict } from '../../src/permissions/escalation';
import type { PermissionRecord } from '../../src/permissions/features';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { keysetBatches, pageOf } from './paging';
import { editorHoldings } from './all-locations';
import { createRole, inputHoldings, rolePermissionRecord, unknownLocationErrors, type RoleWriteResult } from './roles';
import { iso, likeFragment, SqlParams } from './sql';
import { AUDIT_ENTITY_USER } from './staff-identity';

/** The locations `l` a user's role reaches: those it lists, and with a grant at all locations (023) the full offering. */
const REACHED = `(l.location_id IN (SELECT rp.location_id FROM role_permissions rp WHERE rp.role_id = u.role_id)
  OR (l.offering = 'full' AND EXISTS (SELECT 1 FROM role_all_locations a WHERE a.role_id = u.role_id)))`;

const USER_COLUMNS = `u.user_id, u.email, u.display_name, u.role_id, r.name AS role_name,
  coalesce(r.superuser, false) AS role_superuser,
  ARRAY(SELECT l.location_id FROM locations l WHERE ${REACHED} ORDER BY 1) AS location_ids,
  ARRAY(SELECT l.name FROM locations l WHERE ${REACHED} ORDER BY lower(l.name)) AS location_names,
  u.status, ${iso('u.last_sign_in_at')} AS last_sign_in_at, u.identity_uid IS NOT NULL AS linked, u.version,
  ${iso('u.updated_at')} AS updated_at`;
const USER_TABLES = 'FROM users u LEFT JOIN roles r ON r.role_id = u.role_id';
/** What the audit trail keeps of a staff member: what an administrator edits, and the version it moved to. */
const AUDITED_COLUMNS = 'display_name, role_id, status, version';

/** Never null, so that the CSV's keyset (sort value, id) compares: a missing name or role sorts first. */
const SORT_EXPRESSIONS = {
  email: 'u.email',
  display_name: "lower(coalesce(u.display_name, ''))",
  role: "lower(coalesce(r.name, ''))",
  status: 'u.status',
  last_sign_in_at: "coalesce(u.last_sign_in_at, '-infinity'::timestamptz)",
} as const;

function filtered(query: UserListQuery) {
  const params = new SqlParams();
  // Enforcement Lite officers are managed in their own section (docs/enforcement-lite.md), not here.
  const conditions: string[] = ['NOT u.lite_officer'];
  if (query.q) {
    const pattern = params.add(likeFragment(query.q));
    conditions.push(`(u.email ILIKE ${pattern} OR u.display_name ILIKE ${pattern})`);
  }
  if (query.status) conditions.push(`u.status = ${params.add(query.status)}`);
  if (query.roleId !== undefined) conditions.push(`u.role_id = ${params.add(query.roleId)}`);
  const from = `${USER_TABLES} WHERE ${conditions.join(' AND ')}`;
  return { params, from, sortExpr: SORT_EXPRESSIONS[query.sort ?? 'email'], direction: query.dir ?? 'asc' };
}

export function listUsersPage(db: Queryable, query: UserListQuery, window: ListWindow): Promise<Paged<StaffUser>> {
  const { params, from, sortExpr, direction } = filtered(query);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<StaffUser>(db, {
    select: USER_COLUMNS,
    from,
    orderBy: `${sortExpr} ${order}, u.user_id ${order}`,
    params,
    window,
  });
}

export function userBatches(db: Queryable, query: UserListQuery) {
  const { params, from, sortExpr, direction } = filtered(query);
  return keysetBatches<StaffUser & Record<string, unknown>>(db, {
    select: USER_COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'u.user_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

export async function findUser(db: Queryable, userId: number): Promise<StaffUser | undefined> {
  if (!Number.isInteger(userId) || userId < 1 || userId > MAX_INT_ID) return undefined;
  const { rows } = await db.query<StaffUser>(`SELECT ${USER_COLUMNS} ${USER_TABLES} WHERE u.user_id = $1 AND NOT u.lite_officer`, [userId]);
  return rows[0];
}

export type UserWriteResult =
  | { kind: 'ok'; user: StaffUser }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'duplicateEmail'; email: string }
  | { kind: 'unknownRole'; roleId: number }
  | { kind: 'refused'; verdict: Exclude<EscalationVerdict, { ok: true }> }
  | { kind: 'hasHistory' };

/** The editor: who they are (nobody changes their own account) and what they hold. */
export interface Editor extends Actor {
  record: PermissionRecord;
}

/** The editor as the no-escalation check reads them: with their role's all-locations grants (src/permissions/all-locations.ts). */
async function checked(tx: Queryable, editor: Editor): Promise<{ userId: number; record: PermissionRecord }> {
  return { userId: editor.userId, record: await editorHoldings(tx, editor.userId, editor.record) };
}

/** What a role grants, or nothing for no role; undefined when the role does not exist. */
async function grantsOfRole(tx: Queryable, roleId: number | null): Promise<PermissionRecord | null | undefined> {
  if (roleId === null) return null;
  if (roleId > MAX_INT_ID) return undefined;
  return rolePermissionRecord(tx, roleId);
}

async function emailTaken(tx: Queryable, email: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM users WHERE email = $1', [email])).rows.length > 0;
}

/**
 * Checks an invitation before the identity provider is asked to create the account: the role exists, the editor may
 * give it (every triple it grants is theirs), the e-mail is not a staff member's yet.
 */
export async function checkInvite(
  tx: Queryable,
  editor: Editor,
  input: UserInvite,
): Promise<Exclude<UserWriteResult, { kind: 'ok' }> | null> {
  const granted = await grantsOfRole(tx, input.role_id);
  if (granted === undefined || granted === null) return { kind: 'unknownRole', roleId: input.role_id };
  // The new row has no id yet: 0 is nobody's, so the self rule cannot apply to an invitation.
  const verdict = checkUserChange(await checked(tx, editor), 0, null, granted);
  if (!verdict.ok) return { kind: 'refused', verdict };
  if (await emailTaken(tx, input.email)) return { kind: 'duplicateEmail', email: input.email };
  return null;
}

/**
 * Adds the invited staff member, bound to the sign-in account the identity provider created (`uid`; null when an
 * account with that e-mail existed already: its first verified sign-in then claims the row, docs/api.md "Identity
 * binding"). The checks run again inside the transaction, since the provider call ran outside it.
 */
export async function inviteUser(
  tx: Queryable,
  editor: Editor,
  input: UserInvite,
  uid: string | null,
  now: Date,
): Promise<UserWriteResult> {
  const refused = await checkInvite(tx, editor, input);
  if (refused) return refused;
  const boundElsewhere = uid !== null && (await tx.query('SELECT 1 FROM users WHERE identity_uid = $1', [uid])).rows.length > 0;
  const linkUid = boundElsewhere ? null : uid;
  const { rows } = await tx.query<{ user_id: number }>(
    `INSERT INTO users (email, display_name, role_id, identity_uid, identity_linked_at, invited_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING user_id`,
    [input.email, input.display_name, input.role_id, linkUid, linkUid === null ? null : now, editor.userId],
  );
  const userId = rows[0]!.user_id;
  await writeAudit(tx, {
    actor: editor,
    entity: AUDIT_ENTITY_USER,
    entityId: userId,
    action: 'invite',
    before: null,
    after: { email: input.email, ...(await auditedState(tx, userId, false)) },
  });
  return { kind: 'ok', user: (await findUser(tx, userId))! };
}

async function auditedState(tx: Queryable, userId: number, lock: boolean) {
  if (!Number.isInteger(userId) || userId < 1 || userId > MAX_INT_ID) return undefined;
  const { rows } = await tx.query<{ display_name: string | null; role_id: number | null; status: UserStatus; version: number }>(
    `SELECT ${AUDITED_COLUMNS} FROM users WHERE user_id = $1 AND NOT lite_officer${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0];
}

async function conflictOf(tx: Queryable, userId: number, currentVersion: number): Promise<Extract<UserWriteResult, { kind: 'conflict' }>> {
  return { kind: 'conflict', conflict: { currentVersion, ...(await lastChange(tx, AUDIT_ENTITY_USER, userId)) } };
}

/** Edits the name and role, from `version`. A new role is a change of every triple the two roles differ in. */
export async function updateUser(
  tx: Queryable,
  editor: Editor,
  userId: number,
  // Save as new role keeps the name as it is, which may be none (a seeded account).
  input: Omit<UserUpdate, 'display_name'> & { display_name: string | null },
): Promise<UserWriteResult> {
  const before = await auditedState(tx, userId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, userId, before.version);
  if (input.role_id !== before.role_id) {
    const granted = await grantsOfRole(tx, input.role_id);
    if (granted === undefined || granted === null) return { kind: 'unknownRole', roleId: input.role_id };
    const held = (await grantsOfRole(tx, before.role_id)) ?? null;
    const verdict = checkUserChange(await checked(tx, editor), userId, held, granted);
    if (!verdict.ok) return { kind: 'refused', verdict };
  }
  await tx.query(
    `UPDATE users SET display_name = $2, role_id = $3, version = version + 1, updated_at = now(), updated_by = $4
      WHERE user_id = $1`,
    [userId, input.display_name, input.role_id, editor.userId],
  );
  await writeAudit(tx, {
    actor: editor,
    entity: AUDIT_ENTITY_USER,
    entityId: userId,
    action: 'update',
    before,
    after: (await auditedState(tx, userId, false))!,
  });
  return { kind: 'ok', user: (await findUser(tx, userId))! };
}

/**
 * Save as new role: creates the role the editor named, with the access they chose, and gives it to this staff member
 * alone, from `version`, in the caller's transaction. Everything is checked before anything is written (the user's
 * version, the change of their grants, then the role's own checks), so a refusal leaves no role behind; the role the
 * user held is not touched.
 */
export async function saveUserWithNewRole(
  tx: Queryable,
  editor: Editor,
  userId: number,
  input: UserNewRole,
): Promise<UserWriteResult | Exclude<RoleWriteResult, { kind: 'ok' }>> {
  const before = await auditedState(tx, userId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== input.version) return conflictOf(tx, userId, before.version);
  // A location that does not exist is the request's mistake (400), not an escalation (403).
  const fieldErrors = await unknownLocationErrors(tx, input.role.permissions);
  if (Object.keys(fieldErrors).length > 0) return { kind: 'invalid', fieldErrors };
  const held = (await grantsOfRole(tx, before.role_id)) ?? null;
  const verdict = checkUserChange(await checked(tx, editor), userId, held, await inputHoldings(tx, input.role));
  if (!verdict.ok) return { kind: 'refused', verdict };
  const created = await createRole(tx, editor, editor.record, input.role);
  if (created.kind !== 'ok') return created;
  return updateUser(tx, editor, userId, { display_name: before.display_name, role_id: created.role.role_id, version: input.version });
}

/**
 * Disables or enables a staff member, from `version`. Disabling takes away everything their role grants (and
 * enabling gives it back), so the editor must hold all of it; nobody disables themselves.
 */
export async function setUserStatus(
  tx: Queryable,
  editor: Editor,
  userId: number,
  change: { status: UserStatus; version: number },
): Promise<UserWriteResult> {
  const before = await auditedState(tx, userId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== change.version) return conflictOf(tx, userId, before.version);
  const held = (await grantsOfRole(tx, before.role_id)) ?? null;
  const verdict =
    change.status === 'disabled'
      ? checkUserChange(await checked(tx, editor), userId, held, null)
      : checkUserChange(await checked(tx, editor), userId, null, held);
  if (!verdict.ok) return { kind: 'refused', verdict };
  if (before.status === change.status) return { kind: 'ok', user: (await findUser(tx, userId))! };
  await tx.query(
    'UPDATE users SET status = $2, version = version + 1, updated_at = now(), updated_by = $3 WHERE user_id = $1',
    [userId, change.status, editor.userId],
  );
  await writeAudit(tx, {
    actor: editor,
    entity: AUDIT_ENTITY_USER,
    entityId: userId,
    action: change.status === 'disabled' ? 'disable' : 'enable',
    before,
    after: (await auditedState(tx, userId, false))!,
  });
  return { kind: 'ok', user: (await findUser(tx, userId))! };
}

/**
 * Deletes a staff member who never signed in and never changed anything (an invitation taken back), from `version`;
 * anyone with history is disabled instead. Like disabling, it takes away everything their role grants, so the
 * editor must hold all of it; nobody deletes themselves. Answers the sign-in account to delete with the row.
 */
export async function deleteUser(
  tx: Queryable,
  editor: Editor,
  userId: number,
  version: number,
): Promise<Exclude<UserWriteResult, { kind: 'ok' }> | { kind: 'deleted'; identityUid: string | null }> {
  const before = await auditedState(tx, userId, true);
  if (!before) return { kind: 'notFound' };
  if (before.version !== version) return conflictOf(tx, userId, before.version);
  const verdict = checkUserChange(await checked(tx, editor), userId, (await grantsOfRole(tx, before.role_id)) ?? null, null);
  if (!verdict.ok) return { kind: 'refused', verdict };
  const { rows } = await tx.query<{ email: string; identity_uid: string | null; has_history: boolean }>(
    `SELECT email, identity_uid,
            last_sign_in_at IS NOT NULL OR EXISTS (SELECT 1 FROM audit_log a WHERE a.actor_user_id = u.user_id) AS has_history
       FROM users u WHERE user_id = $1`,
    [userId],
  );
  const row = rows[0]!;
  if (row.has_history) return { kind: 'hasHistory' };
  await tx.query('DELETE FROM users WHERE user_id = $1', [userId]);
  await writeAudit(tx, {
    actor: editor,
    entity: AUDIT_ENTITY_USER,
    entityId: userId,
    action: 'delete',
    before: { email: row.email, ...before },
    after: null,
  });
  return { kind: 'deleted', identityUid: row.identity_uid };
}
