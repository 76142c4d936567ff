import type * as z from 'zod/mini';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  assignableRolesSchema,
  invitedUserSchema,
  USERS_ASSIGNABLE_ROLES_PATH,
  USERS_EXPORT_PATH,
  USERS_PATH,
  userDeletedSchema,
  userNewRolePath,
  userPageSchema,
  userSchema,
  type AssignableRole,
  type StaffUser,
  type UserInvite,
  type UserListQuery,
  type UserNewRole,
  type UserStatus,
  type UserUpdate,
} from '../contract/users';
import type { ApiClient, RequestOptions } from './client';

/** Staff members (issue 13). Writes are quiet about what their screens explain in place: 400, 403 and 409. */
const IN_PLACE = { quietStatuses: [400, 403, 409] } as const;
const userPath = (userId: number) => `${USERS_PATH}/${userId}`;

export function listUsers(client: ApiClient, query: UserListQuery, options?: RequestOptions): Promise<Paged<StaffUser>> {
  return client.get(USERS_PATH, query, userPageSchema, options);
}

export function getUser(client: ApiClient, userId: number, options?: RequestOptions): Promise<StaffUser> {
  return client.get(userPath(userId), undefined, userSchema, options);
}

export function getUserHistory(client: ApiClient, userId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${userPath(userId)}/history`, undefined, historySchema, options);
}

export function listAssignableRoles(client: ApiClient, options?: RequestOptions): Promise<AssignableRole[]> {
  return client.get(USERS_ASSIGNABLE_ROLES_PATH, undefined, assignableRolesSchema, options);
}

export function inviteUser(client: ApiClient, invite: UserInvite): Promise<z.infer<typeof invitedUserSchema>> {
  return client.post(USERS_PATH, invite, invitedUserSchema, IN_PLACE);
}

export function updateUser(client: ApiClient, userId: number, update: UserUpdate): Promise<StaffUser> {
  return client.post(userPath(userId), update, userSchema, IN_PLACE);
}

export function setUserStatus(
  client: ApiClient,
  userId: number,
  change: { status: UserStatus; version: number },
): Promise<StaffUser> {
  return client.post(`${userPath(userId)}/status`, change, userSchema, IN_PLACE);
}

/** Save as new role: creates the named role and gives it to this staff member alone, from `version`. */
export function saveUserWithNewRole(client: ApiClient, userId: number, input: UserNewRole): Promise<StaffUser> {
  return client.post(userNewRolePath(userId), input, userSchema, IN_PLACE);
}

/** Deletes an invitation nobody used; a 409 says the person has history (disable them instead). */
export async function deleteUser(client: ApiClient, userId: number, version: number): Promise<void> {
  await client.post(`${userPath(userId)}/delete`, { version }, userDeletedSchema, IN_PLACE);
}

/** Saves every staff member the list's filters match as CSV. */
export async function exportUsersCsv(
  client: ApiClient,
  query: UserListQuery,
  onProgress?: (receivedBytes: number) => void,
): Promise<void> {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const file = await client.download(USERS_EXPORT_PATH, filters, {
    fallbackFileName: `users-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
