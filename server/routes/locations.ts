import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  LOCATIONS_EXPORT_PATH,
  LOCATIONS_PATH,
  locationInputSchema,
  locationListQuerySchema,
  locationPageSchema,
  locationParamsSchema,
  locationSchema,
  locationUpdateSchema,
  locationDeletedSchema,
  locationDeleteSchema,
  locationStatusChangeSchema,
  type Location,
} from '../../src/contract/locations';
import { hasPermission } from '../../src/permissions/rules';
import { listHistory } from '../db/audit';
import {
  createLocation,
  deleteLocation,
  findLocation,
  listLocationsPage,
  locationBatches,
  setLocationStatus,
  updateLocation,
  type LocationWriteResult,
} from '../db/locations';
import { pageBeyondLimit } from '../db/paging';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { locationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';


const CSV_HEADER = ['Location ID', 'Name', 'Address', 'Time zone', 'Spaces', 'Status', 'Enforcement', 'Grace period (min)'];
const csvRow = (location: Location) => [
  location.location_id,
  location.name,
  location.address,
  location.time_zone,
  location.capacity,
  location.status,
  location.enforcement_enabled ? 'on' : 'off',
  location.grace_period_minutes,
];

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

/** Turns what the repository answered into the response: the location, or the 404/409/400 that explains why not. */
function writeResponse(c: Context<StaffEnv>, locationId: number | null, result: LocationWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.location }, 200);
    case 'notFound':
      return c.json(failure(`Location ${locationId} does not exist.`), 404);
    case 'duplicateName':
      return c.json(invalidFields({ name: `A location named "${result.name}" already exists.` }), 400);
    case 'hasRecords':
      return c.json(
        failure(`Location ${locationId} has payments, bookings or monthly parkers, so it cannot be deleted; deactivate it instead.`),
        409,
      );
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      const when = changedAt ? ` at ${changedAt}` : '';
      return c.json(
        conflictFailure(
          `Location ${locationId} was changed by ${who}${when} after you opened it. Reload to see their version; nothing was saved.`,
          result.conflict,
        ),
        409,
      );
    }
  }
}

export function registerLocationRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });

  const list = createRoute({
    method: 'get',
    path: LOCATIONS_PATH,
    tags: ['locations'],
    summary: 'Locations the user may view, filtered, sorted and paged on the server',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(locationListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(locationPageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'lo', 'view')) {
      return c.json(failure('You do not have permission to view locations.'), 403);
    }
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    const page = await listLocationsPage(deps.db, locationScope(record, 'lo'), query, window);
    return c.json({ success: true as const, data: page }, 200);
  });

  // Registered before /locations/{locationId}, which would otherwise take "export" for an id.
  const exportCsv = createRoute({
    method: 'get',
    path: LOCATIONS_EXPORT_PATH,
    tags: ['locations'],
    summary: 'Every location the list shows for these filters, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { query: parametersSchema(locationListQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'lo', 'view')) {
      return c.json(failure('You do not have permission to view locations.'), 403);
    }
    const batches = locationBatches(deps.db, locationScope(record, 'lo'), c.req.valid('query'));
    return csvResponse(c, {
      fileName: csvFileName('locations', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const create = createRoute({
    method: 'post',
    path: LOCATIONS_PATH,
    tags: ['locations'],
    summary: 'Adds a location (needs location add permission, canAddLocation)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(locationInputSchema)) } },
    responses: {
      200: { description: 'The new location', content: json(responseSchema(successEnvelope(locationSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(create, async (c) => {
    if (!hasPermission(c.get('staff').record, 'lo', 'add')) {
      return c.json(failure('You do not have permission to add locations.'), 403);
    }
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => createLocation(tx, actorOf(c), input));
    return writeResponse(c, null, result) as never;
  });

  const detail = createRoute({
    method: 'get',
    path: `${LOCATIONS_PATH}/{locationId}`,
    tags: ['locations'],
    summary: 'One location, if the user may view it',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(locationParamsSchema) },
    responses: {
      200: { description: 'The location', content: json(responseSchema(successEnvelope(locationSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    const { locationId } = c.req.valid('param');
    // Checked before the lookup, so that users outside a location cannot probe which ids exist.
    if (!hasPermission(c.get('staff').record, 'lo', 'view', [locationId])) {
      return c.json(failure(`You do not have permission to view location ${locationId}.`), 403);
    }
    const location = await findLocation(deps.db, locationId);
    if (!location) return c.json(failure(`Location ${locationId} does not exist.`), 404);
    return c.json({ success: true as const, data: location }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${LOCATIONS_PATH}/{locationId}/history`,
    tags: ['locations'],
    summary: "The location's audit trail, newest first",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(locationParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(history, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'lo', 'view', [locationId])) {
      return c.json(failure(`You do not have permission to view location ${locationId}.`), 403);
    }
    return c.json({ success: true as const, data: await listHistory(deps.db, 'location', locationId) }, 200);
  });

  const update = createRoute({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}`,
    tags: ['locations'],
    summary: 'Saves an edit made from `version` (location edit permission there); 409 if it changed since',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(locationParamsSchema),
      body: { required: true, content: json(requestSchema(locationUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved location', content: json(responseSchema(successEnvelope(locationSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(update, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'lo', 'edit', [locationId])) {
      return c.json(failure(`You do not have permission to edit location ${locationId}.`), 403);
    }
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateLocation(tx, actorOf(c), locationId, input));
    return writeResponse(c, locationId, result) as never;
  });

  const status = createRoute({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/status`,
    tags: ['locations'],
    summary: 'Deactivates or activates a location (location edit permission there)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(locationParamsSchema),
      body: { required: true, content: json(requestSchema(locationStatusChangeSchema)) },
    },
    responses: {
      200: { description: 'The location', content: json(responseSchema(successEnvelope(locationSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(status, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'lo', 'edit', [locationId])) {
      return c.json(failure(`You do not have permission to edit location ${locationId}.`), 403);
    }
    const change = c.req.valid('json');
    const result = await deps.db.transaction((tx) => setLocationStatus(tx, actorOf(c), locationId, change));
    return writeResponse(c, locationId, result) as never;
  });

  const remove = createRoute({
    method: 'post',
    path: `${LOCATIONS_PATH}/{locationId}/delete`,
    tags: ['locations'],
    summary: 'Deletes a location that has no records (location delete permission there)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(locationParamsSchema),
      body: { required: true, content: json(requestSchema(locationDeleteSchema)) },
    },
    responses: {
      200: { description: 'Deleted', content: json(responseSchema(successEnvelope(locationDeletedSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(remove, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'lo', 'delete', [locationId])) {
      return c.json(failure(`You do not have permission to delete location ${locationId}.`), 403);
    }
    const { version } = c.req.valid('json');
    const result = await deps.db.transaction((tx) => deleteLocation(tx, actorOf(c), locationId, version));
    if (result.kind === 'deleted') return c.json({ success: true as const, data: { deleted: true as const } }, 200);
    return writeResponse(c, locationId, result) as never;
  });
}
