import * as z from 'zod/mini';
import { userPermissionsSchema } from '../permissions/permissions-object';

/**
 * The permissions lookup (spec §4, §7): the console sends the signed-in e-mail and receives userData (the body's schema:
 * permissions-lookup.ts).
 * Method and path are not fixed by the spec; this product uses POST /auth/permissions (see docs/api.md).
 */
export const PERMISSIONS_LOOKUP_PATH = '/auth/permissions';
export const permissionsLookupDataSchema = z.object({ userData: userPermissionsSchema });

export const VALIDATE_USER_LOGIN_PATH = '/validate-user-login/';
export const validateUserLoginQuerySchema = z.object({ token: z.string().check(z.minLength(1), z.maxLength(4096)) });
export const validateUserLoginDataSchema = z.object({
  valid: z.literal(true),
  email: z.string(),
  expiresAt: z.iso.datetime(),
});

export const LOAD_PERMISSIONS_PATH = '/load-permissions/';
export const loadPermissionsDataSchema = z.object({ userData: userPermissionsSchema });
