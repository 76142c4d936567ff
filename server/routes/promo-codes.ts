import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { successEnvelope } from '../../src/contract/envelope';
import { historySchema, listWindow } from '../../src/contract/lists';
import {
  PROMO_CODES_EXPORT_PATH,
  PROMO_CODES_LOCATIONS_PATH,
  promoCodeLocationsSchema,
  PROMO_CODES_PATH,
  PROMO_CODES_REDEEM_PATH,
  promoCodeInputSchema,
  promoCodeListQuerySchema,
  promoCodePageSchema,
  promoCodeParamsSchema,
  promoCodeSchema,
  promoCodeStatusChangeSchema,
  promoCodeUpdateSchema,
  redeemIdempotencyKeySchema,
  redeemInputSchema,
  redemptionSchema,
  type PromoCode,
} from '../../src/contract/promo-codes';
import type { AccessLevel } from '../../src/permissions/features';
import { hasPermission, locationsLacking } from '../../src/permissions/rules';
import { listHistory } from '../db/audit';
import { listLocationRefsIn } from '../db/locations';
import { pageBeyondLimit } from '../db/paging';
import {
  createPromoCode,
  findPromoCode,
  listPromoCodesPage,
  promoCodeBatches,
  promoCodeLocations,
  setPromoCodeActive,
  updatePromoCode,
  type PromoCodeWriteResult,
} from '../db/promo-codes';
import { redeemPromoCode } from '../db/promo-redemptions';
import { STAFF_SECURITY, type ApiApp, type RouteDeps } from '../http/api-app';
import { csvFileName, csvResponse } from '../http/csv';
import { parametersSchema, requestSchema, responseSchema } from '../http/openapi-schemas';
import { conflictFailure, errorResponses, failure, invalidFields } from '../http/responses';
import { locationScope } from '../http/scope';
import { requireStaffSession, type StaffEnv } from '../http/staff-auth';

const json = <S extends z.ZodType>(schema: S) => ({ 'application/json': { schema } });
/** Header names arrive lower-cased from Hono's header validator. */
const redeemHeadersSchema = z.object({ 'idempotency-key': requestSchema(redeemIdempotencyKeySchema) });
const dollars = (amountCents: number) => `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;

const CSV_HEADER = ['Promo code ID', 'Code', 'Discount', 'Use', 'Total cap', 'Per-plate cap', 'Uses', 'Remaining', 'Valid from (UTC)', 'Valid to (UTC)', 'Active', 'Locations'];
const discountText = (code: PromoCode) =>
  code.discount_type === 'percent'
    ? `${code.discount_value}%`
    : code.discount_type === 'amount'
      ? `$${dollars(code.discount_value)} off`
      : `${code.discount_value} free minutes`;
const csvRow = (code: PromoCode) => [
  code.promo_code_id,
  code.code,
  discountText(code),
  code.multi_use ? 'multi' : 'single',
  code.total_cap,
  code.per_plate_cap,
  code.uses,
  code.remaining,
  code.valid_from,
  code.valid_to,
  code.active ? 'yes' : 'no',
  code.location_ids.join(' '),
];

function writeResponse(c: Context<StaffEnv>, promoCodeId: number | null, result: PromoCodeWriteResult) {
  switch (result.kind) {
    case 'ok':
      return c.json({ success: true as const, data: result.promoCode }, 200);
    case 'notFound':
      return c.json(failure(`Promo code ${promoCodeId} was not found among the codes of your locations.`), 404);
    case 'duplicateCode':
      return c.json(invalidFields({ code: `The code ${result.code} already exists (codes are the same whatever their case).` }), 400);
    case 'unknownLocations':
      return c.json(invalidFields({ location_ids: `No location ${result.ids.join(', ')}.` }), 400);
    case 'conflict': {
      const { changedBy, changedAt } = result.conflict;
      const who = changedBy ? (changedBy.name ?? changedBy.email) : 'someone else';
      const when = changedAt ? ` at ${changedAt}` : '';
      return c.json(
        conflictFailure(
          `Promo code ${promoCodeId} was changed by ${who}${when} after you opened it. Reload to see their version; nothing was saved.`,
          result.conflict,
        ),
        409,
      );
    }
  }
}

export function registerPromoCodeRoutes(app: ApiApp, deps: RouteDeps): void {
  const staffSession = requireStaffSession(deps);
  /** Lists filtered by `?locationId=`: refused (403) outside the user's pc locations, before anything is read. */
  const listSession = requireStaffSession(deps, { locationFilter: { feature: 'pc', records: 'the promo codes' } });
  const actorOf = (c: Context<StaffEnv>) => ({ userId: c.get('staff').userId, email: c.get('staff').email });
  const may = (c: Context<StaffEnv>, level: AccessLevel, ids?: number[]) => hasPermission(c.get('staff').record, 'pc', level, ids);
  /** Locations among `ids` where the user lacks `level`. */
  const lacking = (c: Context<StaffEnv>, level: AccessLevel, ids: number[]) => locationsLacking(c.get('staff').record, 'pc', level, ids);
  const notFound = (c: Context, promoCodeId: number) =>
    c.json(failure(`Promo code ${promoCodeId} was not found among the codes of your locations.`), 404);
  /**
   * The code's locations if the user may see it, else undefined (404). Spec §5: a code of several locations needs
   * promo-code view at every one of them (the list shows the same codes: `inScopeCondition` in server/db/promo-codes.ts).
   */
  const visibleLocations = async (c: Context<StaffEnv>, promoCodeId: number) => {
    const ids = await promoCodeLocations(deps.db, promoCodeId);
    return ids && lacking(c, 'view', ids).length === 0 ? ids : undefined;
  };
  const NO_VIEW = 'You do not have permission to view promo codes.';

  const list = createRoute({
    method: 'get',
    path: PROMO_CODES_PATH,
    tags: ['promo codes'],
    summary: "Promo codes at the user's promo-code locations, with usage, filtered, sorted and paged on the server",
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(promoCodeListQuerySchema) },
    responses: {
      200: { description: 'One page and the total', content: json(responseSchema(successEnvelope(promoCodePageSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    if (!may(c, 'view')) return c.json(failure(NO_VIEW), 403);
    const query = c.req.valid('query');
    const window = listWindow(query);
    const beyond = pageBeyondLimit(window);
    if (beyond) return c.json(failure(beyond), 400);
    const scope = locationScope(c.get('staff').record, 'pc');
    return c.json({ success: true as const, data: await listPromoCodesPage(deps.db, scope, query, window, deps.now()) }, 200);
  });

  const exportCsv = createRoute({
    method: 'get',
    path: PROMO_CODES_EXPORT_PATH,
    tags: ['promo codes'],
    summary: 'Every promo code the list shows for these filters, as CSV (streamed)',
    security: STAFF_SECURITY,
    middleware: [listSession] as const,
    request: { query: parametersSchema(promoCodeListQuerySchema) },
    responses: {
      200: { description: 'RFC 4180 CSV, UTF-8 with a byte-order mark', content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(exportCsv, async (c) => {
    if (!may(c, 'view')) return c.json(failure(NO_VIEW), 403);
    const scope = locationScope(c.get('staff').record, 'pc');
    const batches = promoCodeBatches(deps.db, scope, c.req.valid('query'), deps.now());
    return csvResponse(c, {
      fileName: csvFileName('promo-codes', deps.now()),
      header: CSV_HEADER,
      batches: (async function* () {
        for await (const batch of batches) yield batch.map(csvRow);
      })(),
    }) as never;
  });

  const locations = createRoute({
    method: 'get',
    path: PROMO_CODES_LOCATIONS_PATH,
    tags: ['promo codes'],
    summary: "The locations of the user's promo-code permission (the list's filter and the form's choice)",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    responses: {
      200: { description: 'Locations by name', content: json(responseSchema(successEnvelope(promoCodeLocationsSchema))) },
      ...errorResponses(401, 403),
    },
  });
  app.openapi(locations, async (c) => {
    if (!may(c, 'view')) return c.json(failure(NO_VIEW), 403);
    return c.json({ success: true as const, data: await listLocationRefsIn(deps.db, locationScope(c.get('staff').record, 'pc')) }, 200);
  });

  // Registered before /promo-codes/{promoCodeId}, which would otherwise take "redeem" for an id.
  const redeem = createRoute({
    method: 'post',
    path: PROMO_CODES_REDEEM_PATH,
    tags: ['promo codes'],
    summary:
      'Applies a code to a quote and counts the use atomically (promo-code view at the location), once per Idempotency-Key: the same key and body answer the first result again, another body 409; 409 also beyond its caps, outside its window, at another location or when inactive',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      headers: redeemHeadersSchema,
      body: { required: true, content: json(requestSchema(redeemInputSchema)) },
    },
    responses: {
      200: { description: 'The discount and the use counted', content: json(responseSchema(successEnvelope(redemptionSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(redeem, async (c) => {
    const input = c.req.valid('json');
    if (!may(c, 'view', [input.location_id])) {
      return c.json(failure(`You do not have permission to use promo codes at location ${input.location_id}.`), 403);
    }
    const key = c.req.valid('header')['idempotency-key'];
    const outcome = await redeemPromoCode(deps.db, actorOf(c), key, input, deps.now());
    if (outcome.kind === 'redeemed') {
      if (outcome.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json({ success: true as const, data: outcome.redemption }, 200);
    }
    if (outcome.kind === 'keyReused') {
      return c.json(
        failure('This Idempotency-Key was already used for a different redemption. Nothing was counted; send a new key.'),
        409,
      );
    }
    if (outcome.kind === 'unknownCode') return c.json(failure(`There is no promo code ${input.code}.`), 404);
    return c.json(conflictFailure(outcome.detail, { reason: outcome.reason }), 409);
  });

  const create = createRoute({
    method: 'post',
    path: PROMO_CODES_PATH,
    tags: ['promo codes'],
    summary: 'Adds a promo code (promo-code add at each of its locations); an empty code is generated',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { body: { required: true, content: json(requestSchema(promoCodeInputSchema)) } },
    responses: {
      200: { description: 'The new code', content: json(responseSchema(successEnvelope(promoCodeSchema))) },
      ...errorResponses(400, 401, 403),
    },
  });
  app.openapi(create, async (c) => {
    if (!may(c, 'add')) return c.json(failure('You do not have permission to add promo codes.'), 403);
    const input = c.req.valid('json');
    const refused = lacking(c, 'add', input.location_ids);
    if (refused.length) {
      return c.json(failure(`You do not have permission to add promo codes at location ${refused.join(', ')}.`), 403);
    }
    const result = await deps.db.transaction((tx) => createPromoCode(tx, actorOf(c), input));
    return writeResponse(c, null, result) as never;
  });

  const detail = createRoute({
    method: 'get',
    path: `${PROMO_CODES_PATH}/{promoCodeId}`,
    tags: ['promo codes'],
    summary: 'One promo code; 404 alike for a missing one and one outside your locations',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(promoCodeParamsSchema) },
    responses: {
      200: { description: 'The code', content: json(responseSchema(successEnvelope(promoCodeSchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(detail, async (c) => {
    if (!may(c, 'view')) return c.json(failure(NO_VIEW), 403);
    const { promoCodeId } = c.req.valid('param');
    if (!(await visibleLocations(c, promoCodeId))) return notFound(c, promoCodeId);
    return c.json({ success: true as const, data: (await findPromoCode(deps.db, promoCodeId))! }, 200);
  });

  const history = createRoute({
    method: 'get',
    path: `${PROMO_CODES_PATH}/{promoCodeId}/history`,
    tags: ['promo codes'],
    summary: "The promo code's audit trail, newest first",
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: { params: parametersSchema(promoCodeParamsSchema) },
    responses: {
      200: { description: 'Who changed what, when', content: json(responseSchema(successEnvelope(historySchema))) },
      ...errorResponses(400, 401, 403, 404),
    },
  });
  app.openapi(history, async (c) => {
    if (!may(c, 'view')) return c.json(failure(NO_VIEW), 403);
    const { promoCodeId } = c.req.valid('param');
    if (!(await visibleLocations(c, promoCodeId))) return notFound(c, promoCodeId);
    return c.json({ success: true as const, data: await listHistory(deps.db, 'promo_code', promoCodeId) }, 200);
  });

  /** Edit and status: edit permission at every location the code has now and will have after the change. */
  const editRefusal = async (c: Context<StaffEnv>, promoCodeId: number, newIds: number[]) => {
    const current = await visibleLocations(c, promoCodeId);
    if (!current) return notFound(c, promoCodeId);
    const refused = lacking(c, 'edit', [...new Set([...current, ...newIds])]);
    if (refused.length) {
      return c.json(failure(`You do not have permission to edit promo codes at location ${refused.join(', ')}.`), 403);
    }
    return null;
  };

  const update = createRoute({
    method: 'post',
    path: `${PROMO_CODES_PATH}/{promoCodeId}`,
    tags: ['promo codes'],
    summary: 'Saves an edit made from `version` (promo-code edit at each of its locations); 409 if it changed since',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(promoCodeParamsSchema),
      body: { required: true, content: json(requestSchema(promoCodeUpdateSchema)) },
    },
    responses: {
      200: { description: 'The saved code', content: json(responseSchema(successEnvelope(promoCodeSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(update, async (c) => {
    if (!may(c, 'edit')) return c.json(failure('You do not have permission to edit promo codes.'), 403);
    const { promoCodeId } = c.req.valid('param');
    const input = c.req.valid('json');
    const refusal = await editRefusal(c, promoCodeId, input.location_ids);
    if (refusal) return refusal as never;
    const result = await deps.db.transaction((tx) => updatePromoCode(tx, actorOf(c), promoCodeId, input));
    return writeResponse(c, promoCodeId, result) as never;
  });

  const status = createRoute({
    method: 'post',
    path: `${PROMO_CODES_PATH}/{promoCodeId}/status`,
    tags: ['promo codes'],
    summary: 'Deactivates or activates a promo code (promo-code edit at each of its locations)',
    security: STAFF_SECURITY,
    middleware: [staffSession] as const,
    request: {
      params: parametersSchema(promoCodeParamsSchema),
      body: { required: true, content: json(requestSchema(promoCodeStatusChangeSchema)) },
    },
    responses: {
      200: { description: 'The code', content: json(responseSchema(successEnvelope(promoCodeSchema))) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  app.openapi(status, async (c) => {
    if (!may(c, 'edit')) return c.json(failure('You do not have permission to edit promo codes.'), 403);
    const { promoCodeId } = c.req.valid('param');
    const refusal = await editRefusal(c, promoCodeId, []);
    if (refusal) return refusal as never;
    const change = c.req.valid('json');
    const result = await deps.db.transaction((tx) => setPromoCodeActive(tx, actorOf(c), promoCodeId, change));
    return writeResponse(c, promoCodeId, result) as never;
  });
}
