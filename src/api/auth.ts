import type * as z from 'zod/mini';
import {
  LOAD_PERMISSIONS_PATH,
  loadPermissionsDataSchema,
  PERMISSIONS_LOOKUP_PATH,
  permissionsLookupDataSchema,
  VALIDATE_USER_LOGIN_PATH,
  validateUserLoginDataSchema,
} from '../contract/auth';
import type { UserPermissions } from '../permissions/permissions-object';
import type { ApiClient } from './client';

export type UserLoginValidation = z.infer<typeof validateUserLoginDataSchema>;

/** The permissions lookup after sign-in (spec §4): the signed-in e-mail in, userData out. */
export async function lookupPermissions(client: ApiClient, email: string): Promise<UserPermissions> {
  const { userData } = await client.post(PERMISSIONS_LOOKUP_PATH, { email }, permissionsLookupDataSchema);
  return userData;
}

/** Checks an explicit session token (spec §7 GET /validate-user-login/). */
export function validateUserLogin(client: ApiClient, token: string): Promise<UserLoginValidation> {
  return client.get(VALIDATE_USER_LOGIN_PATH, { token }, validateUserLoginDataSchema);
}

/** The permissions of the session in the JwtToken header (spec §7 GET /load-permissions/). */
export async function loadPermissions(client: ApiClient): Promise<UserPermissions> {
  const { userData } = await client.get(LOAD_PERMISSIONS_PATH, undefined, loadPermissionsDataSchema);
  return userData;
}
