import { createRoute } from '@hono/zod-openapi';
import {
  LOAD_PERMISSIONS_PATH,
  loadPermissionsDataSchema,
  PERMISSIONS_LOOKUP_PATH,
  permissionsLookupDataSchema,
  VALIDATE_USER_LOGIN_PATH,
  validateUserLoginDataSchema,
  validateUserLoginQuerySchema,
} from '../../src/contract/auth';
import { permissionsLookupBodySchema } from '../../src/contract/permissions-lookup';
import { successEnvelope } from '../../src/contract/envelope';
import { derivePermissions } from '../../src/permissions/permissions-object';
import { listLocationRefs } from '../db/locations';
import { recordSignIn } from '../db/staff';
import { signInStaffIdentity } from '../db/staff-identity';
import { FIREBASE_ID_TOKEN, STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure, sessionFailure } from '../http/responses';
import { admission, requireIdentity, requireStaffSession } from '../http/staff-auth';
import { describeValidationError } from '../http/validation';

export function registerAuthRoutes(app: ApiApp, deps: RouteDeps): void {
  const { db, sessions } = deps;

  // POST, not GET: the e-mail is personal data and does not belong in URLs, proxy logs or browser history.
  const permissionsLookup = createRoute({
    method: 'post',
    path: PERMISSIONS_LOOKUP_PATH,
    tags: ['auth'],
    summary: 'Permissions lookup: starts a session for the signed-in staff member',
    description:
      "Needs only the Firebase ID token, of a verified e-mail. The body e-mail must be the token's. The first " +
      "verified sign-in of an invited e-mail binds its staff row to the token's uid; afterwards only that uid signs " +
      'in as that staff member. Issues the session token (userData.token) that every other protected call sends in ' +
      'the JwtToken header.',
    security: [{ [FIREBASE_ID_TOKEN]: [] }],
    middleware: [requireIdentity(deps.verifyIdToken)] as const,
    request: {
      body: { required: true, content: { 'application/json': { schema: requestSchema(permissionsLookupBodySchema) } } },
    },
    responses: {
      200: {
        description: 'The permissions object (spec §3) with a fresh session token',
        content: { 'application/json': { schema: responseSchema(successEnvelope(permissionsLookupDataSchema)) } },
      },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(permissionsLookup, async (c) => {
    const identity = c.get('identity');
    const { email } = c.req.valid('json');
    if (email.toLowerCase() !== identity.email.toLowerCase()) {
      return c.json(failure('The e-mail does not match the signed-in account.'), 403);
    }
    const admitted = admission(await signInStaffIdentity(db, identity, deps.now()));
    if (!admitted.ok) return c.json(failure(admitted.message), 403);
    const { staff } = admitted;
    const { token } = await sessions.issue({ email: identity.email, uid: identity.uid });
    await recordSignIn(db, staff.userId, deps.now());
    const locations = await listLocationRefs(db);
    const userData = derivePermissions({ record: staff.record, email: staff.email, token, locations });
    return c.json({ success: true as const, data: { userData } }, 200);
  });

  const validateUserLogin = createRoute({
    method: 'get',
    path: VALIDATE_USER_LOGIN_PATH,
    tags: ['auth'],
    summary: 'Checks a session token passed explicitly',
    request: { query: parametersSchema(validateUserLoginQuerySchema) },
    responses: {
      200: {
        description: 'The token is valid',
        content: { 'application/json': { schema: responseSchema(successEnvelope(validateUserLoginDataSchema)) } },
      },
      ...errorResponses(400, 401),
    },
  });
  app.openapi(
    validateUserLogin,
    async (c) => {
      const check = await sessions.verify(c.req.valid('query').token);
      if (!check.ok) return sessionFailure(c, check.code, check.message);
      const { email, expiresAt } = check.claims;
      return c.json(
        { success: true as const, data: { valid: true as const, email, expiresAt: expiresAt.toISOString() } },
        200,
      );
    },
    // A missing token is the session error NoTokenProvided (spec §8), not a malformed request.
    (result, c) => {
      if (result.success) return undefined;
      if (!c.req.query('token')) {
        const message = 'No session token was provided: pass ?token=<session token>.';
        return c.json({ success: false as const, error: 'NoTokenProvided', message }, 401);
      }
      return c.json(failure(describeValidationError(result.target, result.error)), 400);
    },
  );

  const loadPermissions = createRoute({
    method: 'get',
    path: LOAD_PERMISSIONS_PATH,
    tags: ['auth'],
    summary: 'Reloads the permissions object for the current session',
    security: STAFF_SECURITY,
    middleware: [requireStaffSession(deps)] as const,
    responses: {
      200: {
        description: 'The permissions object, read fresh from the database, with the same session token',
        content: { 'application/json': { schema: responseSchema(successEnvelope(loadPermissionsDataSchema)) } },
      },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(loadPermissions, async (c) => {
    const staff = c.get('staff');
    const locations = await listLocationRefs(db);
    const userData = derivePermissions({
      record: staff.record,
      email: staff.email,
      token: c.get('sessionToken'),
      locations,
    });
    return c.json({ success: true as const, data: { userData } }, 200);
  });
}
