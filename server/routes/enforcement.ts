import { createRoute, z } from '@hono/zod-openapi';
import {
  bookingRecordSchema,
  ENFORCEMENT_TRANSACTIONS_PATH,
  enforcementQuerySchema,
  enforcementRequestSchema,
  monthlyParkerRecordSchema,
  transactionRecordSchema,
} from '../../src/contract/enforcement';
import { successEnvelope } from '../../src/contract/envelope';
import { hasPermission } from '../../src/permissions/rules';
import { syncPageJson } from '../db/enforcement';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { errorResponses, failure } from '../http/responses';
import { requireStaffSession } from '../http/staff-auth';

const syncRecordsSchema = z.array(z.union([transactionRecordSchema, bookingRecordSchema, monthlyParkerRecordSchema]));

export function registerEnforcementRoutes(app: ApiApp, deps: RouteDeps): void {
  const sync = createRoute({
    method: 'post',
    path: ENFORCEMENT_TRANSACTIONS_PATH,
    tags: ['enforcement'],
    summary: 'One page of enforcement sync records (spec §4, §7)',
    description:
      'Records of `type` at the listed locations with updated_at ≥ floor(updated_at / 1000), ordered by ' +
      '(updated_at, key), skipping `offset`, at most `limit`. valid: expiry later than now; expired: expiry in the ' +
      'last 21 days; spothero, parkwhiz: bookings whose expiry is later than 21 days ago; monthly_parkers: all. ' +
      'Needs enforcement view on every listed location. `?type=`, when sent, must equal the body type.',
    security: STAFF_SECURITY,
    middleware: [requireStaffSession(deps)] as const,
    request: {
      query: parametersSchema(enforcementQuerySchema),
      body: { required: true, content: { 'application/json': { schema: requestSchema(enforcementRequestSchema) } } },
    },
    responses: {
      200: {
        description: 'The page; shorter than `limit` (possibly empty) when there is nothing more',
        content: { 'application/json': { schema: responseSchema(successEnvelope(syncRecordsSchema)) } },
      },
      ...errorResponses(400, 401, 403),
    },
  });

  app.openapi(sync, async (c) => {
    const query = c.req.valid('query');
    const body = c.req.valid('json');
    if (query.type !== undefined && query.type !== body.type) {
      return c.json(failure(`Invalid request: ?type=${query.type} does not match the body type ${body.type}.`), 400);
    }
    const { record } = c.get('staff');
    // The officer must hold every listed location; naming the refused ones tells the console what to drop.
    if (!hasPermission(record, 'e', 'view', body.locationId)) {
      const refused = [...new Set(body.locationId)]
        .filter((id) => !hasPermission(record, 'e', 'view', [id]))
        .sort((a, b) => a - b);
      const plural = refused.length === 1 ? 'location' : 'locations';
      return c.json(failure(`You do not have enforcement permission for ${plural} ${refused.join(', ')}.`), 403);
    }
    const data = await syncPageJson(deps.db, {
      type: body.type,
      locationIds: body.locationId,
      updatedAtFrom: Math.floor((body.updated_at ?? 0) / 1000),
      offset: body.offset ?? 0,
      limit: body.limit,
      now: deps.now(),
    });
    // The records' JSON comes from the database as it is sent (server/db/enforcement.ts): not parsed to be written
    // again. The envelope is the one c.json would write for { success: true, data }; `as never` because the route's
    // typing knows only c.json responses (the text is that same JSON, byte for byte).
    return c.body(`{"success":true,"data":${data}}`, 200, { 'Content-Type': 'application/json' }) as never;
  });
}
