import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  RATES_PATH,
  rateChangeCancelSchema,
  rateChangeDetailSchema,
  rateChangeInputSchema,
  rateChangeListQuerySchema,
  rateChangePageSchema,
  rateChangeParamsSchema,
  rateConfigUpdateSchema,
  rateLocationParamsSchema,
  rateLocationRefsSchema,
  rateLocationSchema,
  type RateChange,
} from '../../src/contract/rates';
import { hasPermission } from '../../src/permissions/rules';
import { validate } from '../../src/rates/validate';
import { listHistory } from '../db/audit';
import { pageBeyondLimit } from '../db/paging';
import {
  RATES_AUDIT_ENTITY,
  cancelRateChange,
  findRateChange,
  findRateLocation,
  listRateChangesPage,
  rateChangeBatches,
  rateLocationRefs,
  scheduleRateChange,
  updateRateConfig,
  type RateWriteResult,
} from '../db/rates';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { locationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });

const CSV_HEADER = ['Change ID', 'Location ID', 'Location', 'Time zone', 'Effective at (UTC)', 'Status', 'Reason', 'Scheduled by', 'Scheduled at (UTC)', 'Cancelled by', 'Cancelled at (UTC)'];
const csvRow = (change: RateChange) => [
  change.rate_set_id,
  change.location_id,
  change.location_name,
  change.time_zone,
  change.effective_at,
  change.status,
  change.reason,
  change.created_by?.email ?? '',
  change.created_at,
  change.cancelled_by?.email ?? '',
  change.cancelled_at ?? '',
];

/** A change may be scheduled for now: a minute of slack for the time the request took. */
const SCHEDULE_SLACK_MS = 60_000;

function writeResponse<T>(c: Context<StaffEnv>, what: string, result: RateWriteResult<T>) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.value }, 200);
    case 'notFound':
      return c.json(failure(`${what} does not exist.`), 404);
    case 'notScheduled':
      return c.json(failure(`${what} is ${result.status}, so it cannot be cancelled any more.`), 409);
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      const when = changedAt ? ` at ${changedAt}` : '';
      return c.json(
        conflictFailure(`The rates of ${what.toLowerCase()} were changed by ${who}${when} after you opened them. Reload to see their version; nothing was saved.`, result.conflict),
        409,
      );
    }
  }
}

export function registerRateRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  /** Lists filtered by `?locationId=`: refused (403) outside the user's rs locations, before anything is read. */
  const listSession = requireStaffSession(deps, { locationFilter: { feature: 'rs', records: 'the rate changes' } });
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });
  const refuse = (c: Context<StaffEnv>, message: string) => c.json(failure(message), 403);

  const locations = createRoute({
    method: 'get',
    path: `${RATES_PATH}/locations`,
    tags: ['rates'],
    summary: 'The locations whose rates the user may view',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'Id, name and time zone of each', content: json(responseSchema(successEnvelope(rateLocationRefsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(locations, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rs', 'view')) return refuse(c, 'You do not have permission to view rates.');
    return c.json({ success: true as const, data: await rateLocationRefs(deps.db, locationScope(record, 'rs')) }, 200);
  });

  const location = createRoute({
    method: 'get',
    path: `${RATES_PATH}/locations/{locationId}`,
    tags: ['rates'],
    summary: "A location's configuration, the rate set in force now and the next scheduled change",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(rateLocationParamsSchema) },
    responses: {
      200: { description: 'The location’s rates', content: json(responseSchema(successEnvelope(rateLocationSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(location, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'rs', 'view', [locationId])) {
      return refuse(c, `You do not have permission to view the rates of location ${locationId}.`);
    }
    const found = await findRateLocation(deps.db, locationId, deps.now());
    if (!found) return c.json(failure(`Location ${locationId} does not exist.`), 404);
    return c.json({ success: true as const, data: found }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${RATES_PATH}/locations/{locationId}/history`,
    tags: ['rates'],
    summary: "The audit trail of a location's rates, newest first",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(rateLocationParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(history, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'rs', 'view', [locationId])) {
      return refuse(c, `You do not have permission to view the rates of location ${locationId}.`);
    }
    return c.json({ success: true as const, data: await listHistory(deps.db, RATES_AUDIT_ENTITY, locationId) }, 200);
  });

  const config = createRoute({
    method: 'post',
    path: `${RATES_PATH}/locations/{locationId}/config`,
    tags: ['rates'],
    summary: "Saves a location's rate configuration edited from `version` (rate settings edit there); 409 if it changed",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(rateLocationParamsSchema),
      body: { required: true, content: json(requestSchema(rateConfigUpdateSchema)) },
    },
    responses: {
      200: { description: 'The location’s rates', content: json(responseSchema(successEnvelope(rateLocationSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(config, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'rs', 'edit', [locationId])) {
      return refuse(c, `You do not have permission to edit the rates of location ${locationId}.`);
    }
    const input = c.req.valid('json');
    const result = await deps.db.transaction((tx) => updateRateConfig(tx, actorOf(c), locationId, input, deps.now()));
    return writeResponse(c, `Location ${locationId}`, result) as never;
  });

  const schedule = createRoute({
    method: 'post',
    path: `${RATES_PATH}/locations/{locationId}/changes`,
    tags: ['rates'],
    summary: 'Schedules a rate set to take effect at `effective_at` (rate settings edit there); refused with every validate problem',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(rateLocationParamsSchema),
      body: { required: true, content: json(requestSchema(rateChangeInputSchema)) },
    },
    responses: {
      200: { description: 'The scheduled change', content: json(responseSchema(successEnvelope(rateChangeDetailSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(schedule, async (c) => {
    const { locationId } = c.req.valid('param');
    if (!hasPermission(c.get('staff').record, 'rs', 'edit', [locationId])) {
      return refuse(c, `You do not have permission to edit the rates of location ${locationId}.`);
    }
    const input = c.req.valid('json');
    const fieldErrors: Record<string, string> = {};
    for (const problem of validate(input.rate_set)) {
      const key = `rate_set.${problem.path}`;
      fieldErrors[key] = fieldErrors[key] ? `${fieldErrors[key]} ${problem.message}` : problem.message;
    }
    if (Date.parse(input.effective_at) < deps.now().getTime() - SCHEDULE_SLACK_MS) {
      fieldErrors.effective_at = 'The change must take effect now or later.';
    }
    if (Object.keys(fieldErrors).length > 0) return c.json(invalidFields(fieldErrors), 400);
    const result = await deps.db.transaction((tx) => scheduleRateChange(tx, actorOf(c), locationId, input, deps.now()));
    return writeResponse(c, `Location ${locationId}`, result) as never;
  });

  const list = createRoute({
    method: 'get',
    path: `${RATES_PATH}/changes`,
    tags: ['rates'],
    summary: "Scheduled, applied and cancelled rate changes of the user's locations, filtered, sorted and paged",
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(rateChangeListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(rateChangePageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rs', 'view')) return refuse(c, 'You do not have permission to view rates.');
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    const page = await listRateChangesPage(deps.db, locationScope(record, 'rs'), query, window, deps.now());
    return c.json({ success: true as const, data: page }, 200);
  });

  // Registered before /rates/changes/{rateSetId}, which would otherwise take "export" for an id.
  const exportCsv = createRoute({
    method: 'get',
    path: `${RATES_PATH}/changes/export`,
    tags: ['rates'],
    summary: 'Every rate change the list shows for these filters, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(rateChangeListQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rs', 'view')) return refuse(c, 'You do not have permission to view rates.');
    const batches = rateChangeBatches(deps.db, locationScope(record, 'rs'), c.req.valid('query'), deps.now());
    return csvResponse(c, {
      fileName: csvFileName('rate-changes', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const detail = createRoute({
    method: 'get',
    path: `${RATES_PATH}/changes/{rateSetId}`,
    tags: ['rates'],
    summary: 'One rate change with its rate set; 404 alike when missing or not at one of the user’s locations',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(rateChangeParamsSchema) },
    responses: {
      200: { description: 'The change', content: json(responseSchema(successEnvelope(rateChangeDetailSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rs', 'view')) return refuse(c, 'You do not have permission to view rates.');
    const { rateSetId } = c.req.valid('param');
    const change = await findRateChange(deps.db, rateSetId, deps.now());
    if (!change || !hasPermission(record, 'rs', 'view', [change.location_id])) {
      return c.json(failure(`Rate change ${rateSetId} does not exist, or not at one of your locations.`), 404);
    }
    return c.json({ success: true as const, data: change }, 200);
  });

  const cancel = createRoute({
    method: 'post',
    path: `${RATES_PATH}/changes/{rateSetId}/cancel`,
    tags: ['rates'],
    summary: 'Cancels a scheduled change (rate settings edit at its location); 409 once applied or if the schedule moved on',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(rateChangeParamsSchema),
      body: { required: true, content: json(requestSchema(rateChangeCancelSchema)) },
    },
    responses: {
      200: { description: 'The cancelled change', content: json(responseSchema(successEnvelope(rateChangeDetailSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(cancel, async (c) => {
    const { record } = c.get('staff');
    if (!hasPermission(record, 'rs', 'edit')) return refuse(c, 'You do not have permission to edit rates.');
    const { rateSetId } = c.req.valid('param');
    const { schedule_version } = c.req.valid('json');
    const change = await findRateChange(deps.db, rateSetId, deps.now());
    if (!change || !hasPermission(record, 'rs', 'view', [change.location_id])) {
      return c.json(failure(`Rate change ${rateSetId} does not exist, or not at one of your locations.`), 404);
    }
    if (!hasPermission(record, 'rs', 'edit', [change.location_id])) {
      return refuse(c, `You do not have permission to edit the rates of location ${change.location_id}.`);
    }
    const result = await deps.db.transaction((tx) => cancelRateChange(tx, actorOf(c), change, schedule_version, deps.now()));
    return writeResponse(c, `Rate change ${rateSetId}`, result) as never;
  });
}
