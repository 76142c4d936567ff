import * as z from 'zod/mini';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  myAllLocationsSchema,
  ROLE_LOCATIONS_PATH,
  ROLES_MY_ALL_LOCATIONS_PATH,
  ROLES_PATH,
  roleLocationsSchema,
  rolePageSchema,
  roleSchema,
  type MyAllLocations,
  type Role,
  type RoleInput,
  type RoleListQuery,
  type RoleLocation,
  type RoleUpdate,
} from '../contract/roles';
import type { ApiClient, RequestOptions } from './client';

/** Roles (issue 13). Writes are quiet about what the editor explains in place: 400, 403 and 409. */
const IN_PLACE = { quietStatuses: [400, 403, 409] } as const;
const rolePath = (roleId: number) => `${ROLES_PATH}/${roleId}`;

export function listRoles(client: ApiClient, query: RoleListQuery, options?: RequestOptions): Promise<Paged<Role>> {
  return client.get(ROLES_PATH, query, rolePageSchema, options);
}

export function listRoleLocations(client: ApiClient, options?: RequestOptions): Promise<RoleLocation[]> {
  return client.get(ROLE_LOCATIONS_PATH, undefined, roleLocationsSchema, options);
}

/** The signed-in user's own grants at all locations, now and later: what the editor may offer at that choice. */
export function getMyAllLocations(client: ApiClient, options?: RequestOptions): Promise<MyAllLocations> {
  return client.get(ROLES_MY_ALL_LOCATIONS_PATH, undefined, myAllLocationsSchema, options);
}

export function getRole(client: ApiClient, roleId: number, options?: RequestOptions): Promise<Role> {
  return client.get(rolePath(roleId), undefined, roleSchema, options);
}

export function getRoleHistory(client: ApiClient, roleId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${rolePath(roleId)}/history`, undefined, historySchema, options);
}

export function createRole(client: ApiClient, input: RoleInput): Promise<Role> {
  return client.post(ROLES_PATH, input, roleSchema, IN_PLACE);
}

export function updateRole(client: ApiClient, roleId: number, update: RoleUpdate): Promise<Role> {
  return client.post(rolePath(roleId), update, roleSchema, IN_PLACE);
}

export async function deleteRole(client: ApiClient, roleId: number, version: number): Promise<void> {
  await client.post(`${rolePath(roleId)}/delete`, { version }, z.object({ deleted: z.literal(true) }), IN_PLACE);
}
