import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  invitedLiteOfficerSchema,
  LITE_LOCATION_CHOICES_PATH,
  LITE_LOCATIONS_PATH,
  LITE_OFFICERS_PATH,
  liteLocationChoicesSchema,
  liteLocationInputSchema,
  liteLocationListQuerySchema,
  liteLocationPageSchema,
  liteLocationParamsSchema,
  liteLocationSchema,
  liteLocationUpdateSchema,
  liteOfficerInviteSchema,
  liteOfficerListQuerySchema,
  liteOfficerPageSchema,
  liteOfficerParamsSchema,
  liteOfficerSchema,
  liteOfficerUpdateSchema,
} from '../../src/contract/enforcement-lite';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow, type VersionConflict } from '../../src/contract/lists';
import type { StaffAccounts } from '../auth/staff-accounts';
import { listHistory } from '../db/audit';
import {
  checkOfficerInvite,
  createLiteLocation,
  findLiteLocation,
  findLiteOfficer,
  inviteLiteOfficer,
  listLiteLocationChoices,
  listLiteLocationsPage,
  listLiteOfficersPage,
  updateLiteLocation,
  updateLiteOfficer,
  type LiteLocationWriteResult,
  type LiteOfficerWriteResult,
} from '../db/enforcement-lite';
import { pageBeyondLimit } from '../db/paging';
import { AUDIT_ENTITY_USER } from '../db/staff-identity';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });
const TAGS = ['enforcement-lite'];

function conflictResponse(c: Context<StaffEnv>, what: string, conflict: VersionConflict) {
  const { changedBy, changedAt } = conflict;
  const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
  const when = changedAt ? ` at ${changedAt}` : '';
  return c.json(
    conflictFailure(`${what} was changed by ${who}${when} after you opened it. Reload to see their version; nothing was saved.`, conflict),
    409,
  );
}

function locationResponse(c: Context<StaffEnv>, locationId: number | null, result: LiteLocationWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.location }, 200);
    case 'notFound':
      return c.json(failure(`Lite location ${locationId} does not exist.`), 404);
    case 'duplicateName':
      return c.json(invalidFields({ name: `A location named "${result.name}" already exists.` }), 400);
    case 'conflict':
      return conflictResponse(c, `Lite location ${locationId}`, result.conflict);
  }
}

function officerResponse(c: Context<StaffEnv>, userId: number | null, result: LiteOfficerWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.officer }, 200);
    case 'notFound':
      return c.json(failure(`Lite officer ${userId} does not exist.`), 404);
    case 'duplicateEmail':
      return c.json(invalidFields({ email: `${result.email} is a staff member already.` }), 400);
    case 'notLiteLocations':
      return c.json(
        invalidFields({ location_ids: `No Enforcement Lite location with id ${result.ids.join(', ')}.` }),
        400,
      );
    case 'self':
      return c.json(failure('Nobody changes their own account here: ask another superuser.'), 403);
    case 'conflict':
      return conflictResponse(c, `Lite officer ${userId}`, result.conflict);
  }
}

/**
 * Enforcement Lite (issue 14, docs/enforcement-lite.md): lite locations and their officers. Every call is refused
 * with 403 unless the caller is a superuser, before anything is read.
 */
export function registerEnforcementLiteRoutes(app: ApiApp, deps: RouteDeps, staffAccounts: StaffAccounts | undefined): void {
  const staffSession = requireStaffSession(deps, { superuserOnly: 'Only a superuser may manage Enforcement Lite.' });
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });
  const listLocations = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: LITE_LOCATIONS_PATH,
    summary: 'Lite locations, searched, filtered, sorted and paged on the server (superuser)',
    request: { query: parametersSchema(liteLocationListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(liteLocationPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(listLocations, async (c) => {
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    return c.json({ success: true as const, data: await listLiteLocationsPage(deps.db, query, window) }, 200);
  });

  const choices = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: LITE_LOCATION_CHOICES_PATH,
    summary: 'Every lite location by name, for the officer form (superuser)',
    responses: {
      200: { description: 'Lite locations', content: json(responseSchema(successEnvelope(liteLocationChoicesSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(choices, async (c) => {
    return c.json({ success: true as const, data: await listLiteLocationChoices(deps.db) }, 200);
  });

  const createLocation = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'post',
    path: LITE_LOCATIONS_PATH,
    summary: 'Adds a lite location, enforcement on (superuser)',
    request: { body: { required: true, content: json(requestSchema(liteLocationInputSchema)) } },
    responses: {
      200: { description: 'The new lite location', content: json(responseSchema(successEnvelope(liteLocationSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(createLocation, async (c) => {
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => createLiteLocation(tx, actorOf(c), input));
    return locationResponse(c, null, result) as never;
  });

  const locationDetail = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: `${LITE_LOCATIONS_PATH}/{locationId}`,
    summary: 'One lite location (superuser)',
    request: { params: parametersSchema(liteLocationParamsSchema) },
    responses: {
      200: { description: 'The lite location', content: json(responseSchema(successEnvelope(liteLocationSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(locationDetail, async (c) => {
    const { locationId } = c.req.valid('param');
    const location = await findLiteLocation(deps.db, locationId);
    if (!location) return c.json(failure(`Lite location ${locationId} does not exist.`), 404);
    return c.json({ success: true as const, data: location }, 200);
  });

  const locationHistory = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: `${LITE_LOCATIONS_PATH}/{locationId}/history`,
    summary: "The lite location's audit trail, newest first (superuser)",
    request: { params: parametersSchema(liteLocationParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(locationHistory, async (c) => {
    const { locationId } = c.req.valid('param');
    return c.json({ success: true as const, data: await listHistory(deps.db, 'location', locationId) }, 200);
  });

  const updateLocation = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'post',
    path: `${LITE_LOCATIONS_PATH}/{locationId}`,
    summary: 'Saves a lite location from `version`, status included (superuser); 409 if it changed since',
    request: {
      params: parametersSchema(liteLocationParamsSchema),
      body: { required: true, content: json(requestSchema(liteLocationUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved lite location', content: json(responseSchema(successEnvelope(liteLocationSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(updateLocation, async (c) => {
    const { locationId } = c.req.valid('param');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateLiteLocation(tx, actorOf(c), locationId, input));
    return locationResponse(c, locationId, result) as never;
  });

  const listOfficers = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: LITE_OFFICERS_PATH,
    summary: 'Lite officers, searched, filtered, sorted and paged on the server (superuser)',
    request: { query: parametersSchema(liteOfficerListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(liteOfficerPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(listOfficers, async (c) => {
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    return c.json({ success: true as const, data: await listLiteOfficersPage(deps.db, query, window) }, 200);
  });

  const inviteOfficer = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'post',
    path: LITE_OFFICERS_PATH,
    summary: 'Adds a lite officer (superuser): creates the sign-in account and returns the set-password link',
    request: { body: { required: true, content: json(requestSchema(liteOfficerInviteSchema)) } },
    responses: {
      200: { description: 'The new officer and the link', content: json(responseSchema(successEnvelope(invitedLiteOfficerSchema))) },
      ...errorResponses(400, 401, 403, 409),
    },
  });
  app.openapi(inviteOfficer, async (c) => {
    const input = c.req.valid('json');
    // Checked before the identity provider creates anything, and again in the transaction that writes the row.
    const early = await checkOfficerInvite(deps.db, input);
    if (early) return officerResponse(c, null, early) as never;
    if (!staffAccounts) {
      return c.json(failure('This server runs without an identity provider, so it cannot add officers.'), 409);
    }
    const account = await staffAccounts.invite({ email: input.email, displayName: input.display_name });
    const result = await deps.db.transaction((tx) => inviteLiteOfficer(tx, actorOf(c), input, account.uid, deps.now()));
    if (result.kind !== 'ok') return officerResponse(c, null, result) as never;
    return c.json({ success: true as const, data: { officer: result.officer, setPasswordLink: account.setPasswordLink } }, 200);
  });

  const officerDetail = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: `${LITE_OFFICERS_PATH}/{userId}`,
    summary: 'One lite officer (superuser)',
    request: { params: parametersSchema(liteOfficerParamsSchema) },
    responses: {
      200: { description: 'The officer', content: json(responseSchema(successEnvelope(liteOfficerSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(officerDetail, async (c) => {
    const { userId } = c.req.valid('param');
    const officer = await findLiteOfficer(deps.db, userId);
    if (!officer) return c.json(failure(`Lite officer ${userId} does not exist.`), 404);
    return c.json({ success: true as const, data: officer }, 200);
  });

  const officerHistory = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'get',
    path: `${LITE_OFFICERS_PATH}/{userId}/history`,
    summary: "The lite officer's audit trail, newest first (superuser)",
    request: { params: parametersSchema(liteOfficerParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(officerHistory, async (c) => {
    const { userId } = c.req.valid('param');
    return c.json({ success: true as const, data: await listHistory(deps.db, AUDIT_ENTITY_USER, userId) }, 200);
  });

  const updateOfficer = createRoute({
    tags: TAGS,
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    method: 'post',
    path: `${LITE_OFFICERS_PATH}/{userId}`,
    summary: 'Saves name, locations and status from `version` (superuser); takes effect on the next call; 409 if it changed',
    request: {
      params: parametersSchema(liteOfficerParamsSchema),
      body: { required: true, content: json(requestSchema(liteOfficerUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved officer', content: json(responseSchema(successEnvelope(liteOfficerSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(updateOfficer, async (c) => {
    const { userId } = c.req.valid('param');
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateLiteOfficer(tx, actorOf(c), userId, input));
    return officerResponse(c, userId, result) as never;
  });
}
