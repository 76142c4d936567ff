import { z } from '@hono/zod-openapi';
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
import type { Queryable } from '../db/db';
import { listLocationRefsIn } from '../db/locations';
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
import type { ApiApp, RouteDeps } from '../http/api-app';
import { requestSchema } from '../http/openapi-schemas';
import { conflict, fieldProblems, notFound, ok, refused, versionConflict, type Outcome, type Refusal } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';

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

const missing = (promoCodeId: number) => notFound(`Promo code ${promoCodeId} was not found among the codes of your locations.`);

function written(promoCodeId: number | null, result: PromoCodeWriteResult): Outcome<PromoCode> {
  switch (result.kind) {
    case 'ok':
      return ok(result.promoCode);
    case 'notFound':
      return missing(promoCodeId ?? 0);
    case 'duplicateCode':
      return fieldProblems({ code: `The code ${result.code} already exists (codes are the same whatever their case).` });
    case 'unknownLocations':
      return fieldProblems({ location_ids: `No location ${result.ids.join(', ')}.` });
    case 'conflict':
      return versionConflict(`Promo code ${promoCodeId}`, result.conflict);
  }
}

type Request = Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'lacking'>;

/**
 * Spec §5: a code of several locations needs promo-code `level` at every one of them — the ones it has and, for an
 * edit, the ones it will have. Unseen codes are a 404 alike with missing ones; seen but not editable ones a 403.
 */
async function refusalAt(
  request: Request & { db: Queryable },
  promoCodeId: number,
  level: AccessLevel,
  newIds: readonly number[] = [],
): Promise<Refusal | null> {
  const current = await promoCodeLocations(request.db, promoCodeId, level !== 'view');
  if (!current || request.lacking('view', current).length) return missing(promoCodeId);
  const lacking = request.lacking(level, [...new Set([...current, ...newIds])]);
  return lacking.length ? refused(`You do not have permission to ${level} promo codes at location ${lacking.join(', ')}.`) : null;
}

export function registerPromoCodeRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'promo codes', feature: 'pc', records: 'promo codes' });

  section.list({
    path: PROMO_CODES_PATH,
    summary: "Promo codes at the user's promo-code locations, with usage, filtered, sorted and paged on the server",
    query: promoCodeListQuerySchema,
    page: promoCodePageSchema,
    locationFilter: 'the promo codes',
    read: ({ db, scope, query, now }, window) => listPromoCodesPage(db, scope(), query, window, now),
    csv: {
      path: PROMO_CODES_EXPORT_PATH,
      summary: 'Every promo code the list shows for these filters, as CSV (streamed)',
      name: 'promo-codes',
      header: CSV_HEADER,
      batches: ({ db, scope, query, now }) => promoCodeBatches(db, scope(), query, now),
      row: csvRow,
    },
  });

  section.route({
    method: 'get',
    path: PROMO_CODES_LOCATIONS_PATH,
    summary: "The locations of the user's promo-code permission (the list's filter and the form's choice)",
    access: { level: 'view' },
    data: promoCodeLocationsSchema,
    answers: 'Locations by name',
    handle: async ({ db, scope }) => ok(await listLocationRefsIn(db, scope())),
  });

  // Registered before /promo-codes/{promoCodeId}, which would otherwise take "redeem" for an id.
  section.route({
    method: 'post',
    path: PROMO_CODES_REDEEM_PATH,
    summary:
      'Applies a code to a quote and counts the use atomically (promo-code view at the location), once per Idempotency-Key: the same key and body answer the first result again, another body 409; 409 also beyond its caps, outside its window, at another location or when inactive',
    access: { level: 'view' },
    headers: redeemHeadersSchema,
    body: redeemInputSchema,
    data: redemptionSchema,
    answers: 'The discount and the use counted',
    errors: [404, 409],
    // Not `writes`: the redemption keeps its own transaction with the idempotency key (server/db/promo-redemptions.ts).
    handle: async ({ db, actor, body, headers, lacking, now }) => {
      if (lacking('view', [body.location_id]).length) {
        return refused(`You do not have permission to use promo codes at location ${body.location_id}.`);
      }
      const outcome = await redeemPromoCode(db, actor, headers['idempotency-key'], body, now);
      switch (outcome.kind) {
        case 'redeemed':
          return ok(outcome.redemption, outcome.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
        case 'keyReused':
          return conflict('This Idempotency-Key was already used for a different redemption. Nothing was counted; send a new key.');
        case 'unknownCode':
          return notFound(`There is no promo code ${body.code}.`);
        case 'refused':
          return conflict(outcome.detail, { reason: outcome.reason });
      }
    },
  });

  section.route({
    method: 'post',
    path: PROMO_CODES_PATH,
    summary: 'Adds a promo code (promo-code add at each of its locations); an empty code is generated',
    access: { level: 'add' },
    body: promoCodeInputSchema,
    data: promoCodeSchema,
    answers: 'The new code',
    writes: true,
    handle: async ({ db, actor, body, lacking }) => {
      const missingAdd = lacking('add', body.location_ids);
      if (missingAdd.length) {
        return refused(`You do not have permission to add promo codes at location ${missingAdd.join(', ')}.`);
      }
      return written(null, await createPromoCode(db, actor, body));
    },
  });

  section.route({
    method: 'get',
    path: `${PROMO_CODES_PATH}/{promoCodeId}`,
    summary: 'One promo code; 404 alike for a missing one and one outside your locations',
    access: { level: 'view' },
    params: promoCodeParamsSchema,
    data: promoCodeSchema,
    answers: 'The code',
    errors: [404],
    handle: async (request) => {
      const { promoCodeId } = request.params;
      return (await refusalAt(request, promoCodeId, 'view')) ?? ok((await findPromoCode(request.db, promoCodeId))!);
    },
  });

  section.history({
    path: `${PROMO_CODES_PATH}/{promoCodeId}/history`,
    summary: "The promo code's audit trail, newest first",
    params: promoCodeParamsSchema,
    errors: [404],
    trail: ({ promoCodeId }) => ({ entity: 'promo_code', id: promoCodeId }),
    hidden: (request) => refusalAt(request, request.params.promoCodeId, 'view'),
  });

  section.route({
    method: 'post',
    path: `${PROMO_CODES_PATH}/{promoCodeId}`,
    summary: 'Saves an edit made from `version` (promo-code edit at each of its locations); 409 if it changed since',
    access: { level: 'edit' },
    params: promoCodeParamsSchema,
    body: promoCodeUpdateSchema,
    data: promoCodeSchema,
    answers: 'The saved code',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { promoCodeId } = request.params;
      const refusal = await refusalAt(request, promoCodeId, 'edit', request.body.location_ids);
      return refusal ?? written(promoCodeId, await updatePromoCode(request.db, request.actor, promoCodeId, request.body));
    },
  });

  section.route({
    method: 'post',
    path: `${PROMO_CODES_PATH}/{promoCodeId}/status`,
    summary: 'Deactivates or activates a promo code (promo-code edit at each of its locations)',
    access: { level: 'edit' },
    params: promoCodeParamsSchema,
    body: promoCodeStatusChangeSchema,
    data: promoCodeSchema,
    answers: 'The code',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { promoCodeId } = request.params;
      const refusal = await refusalAt(request, promoCodeId, 'edit');
      return refusal ?? written(promoCodeId, await setPromoCodeActive(request.db, request.actor, promoCodeId, request.body));
    },
  });
}
