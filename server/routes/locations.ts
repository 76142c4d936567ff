import { createRoute } from '@hono/zod-openapi';
import { successEnvelope } from '../../src/contract/envelope';
import {
  LOCATIONS_PATH,
  locationParamsSchema,
  locationSchema,
  locationsListDataSchema,
} from '../../src/contract/locations';
import { hasPermission } from '../../src/permissions/rules';
import { findLocation, listLocations } from '../db/locations';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure } from '../http/responses';
import { requireStaffSession } from '../http/staff-auth';

export function registerLocationRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);

  const list = createRoute({
    method: 'get',
    path: LOCATIONS_PATH,
    tags: ['locations'],
    summary: 'Locations the user may view (all of them for superusers)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: {
        description: 'Locations with location view permission, by id',
        content: { 'application/json': { schema: responseSchema(successEnvelope(locationsListDataSchema)) } },
      },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'lo', 'view')) {
      return c.json(failure('You do not have permission to view locations.'), 403);
    }
    const visible = (await listLocations(deps.db)).filter((location) =>
      hasPermission(record, 'lo', 'view', [location.location_id]),
    );
    return c.json({ success: true as const, data: visible }, 200);
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
      200: {
        description: 'The location',
        content: { 'application/json': { schema: responseSchema(successEnvelope(locationSchema)) } },
      },
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
}
