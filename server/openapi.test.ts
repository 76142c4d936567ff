import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  loadPermissionsDataSchema,
  permissionsLookupDataSchema,
  validateUserLoginDataSchema,
} from '../src/contract/auth';
import { permissionsLookupBodySchema } from '../src/contract/permissions-lookup';
import {
  bookingRecordSchema,
  enforcementRequestSchema,
  monthlyParkerRecordSchema,
  SYNC_TYPES,
  transactionRecordSchema,
} from '../src/contract/enforcement';
import {
  realtimeQuerySchema,
  realtimeSummarySchema,
  settledDashboardSchema,
  settledQuerySchema,
} from '../src/contract/dashboards';
import { errorEnvelopeSchema, successEnvelope } from '../src/contract/envelope';
import { historySchema } from '../src/contract/lists';
import {
  rateChangeCancelSchema,
  rateChangeDetailSchema,
  rateChangeInputSchema,
  rateChangeListQuerySchema,
  rateChangePageSchema,
  rateConfigUpdateSchema,
  rateLocationRefsSchema,
  rateLocationSchema,
} from '../src/contract/rates';
import {
  promoCodeInputSchema,
  promoCodeListQuerySchema,
  promoCodeLocationsSchema,
  promoCodePageSchema,
  promoCodeSchema,
  promoCodeStatusChangeSchema,
  promoCodeUpdateSchema,
  redeemIdempotencyKeySchema,
  redeemInputSchema,
  redemptionSchema,
} from '../src/contract/promo-codes';
import {
  ticketCreateSchema,
  ticketDecisionSchema,
  ticketDetailSchema,
  ticketListQuerySchema,
  ticketNoteInputSchema,
  ticketPageSchema,
} from '../src/contract/refund-tickets';
import { idempotencyKeySchema, refundInputSchema, refundResultSchema } from '../src/contract/refunds';
import {
  locationDeletedSchema,
  locationDeleteSchema,
  locationInputSchema,
  locationListQuerySchema,
  locationPageSchema,
  locationSchema,
  locationStatusChangeSchema,
  locationUpdateSchema,
} from '../src/contract/locations';
import {
  transactionDetailSchema,
  transactionLocationsSchema,
  transactionPageSchema,
  transactionSearchSchema,
} from '../src/contract/transactions';
import {
  myAllLocationsSchema,
  roleDeletedSchema,
  roleDeleteSchema,
  roleInputSchema,
  roleListQuerySchema,
  roleLocationsSchema,
  rolePageSchema,
  roleSchema,
  roleUpdateSchema,
} from '../src/contract/roles';
import {
  assignableRolesSchema,
  userNewRoleSchema,
  invitedUserSchema,
  userInviteSchema,
  userListQuerySchema,
  userPageSchema,
  userDeletedSchema,
  userDeleteSchema,
  userSchema,
  userStatusChangeSchema,
  userUpdateSchema,
} from '../src/contract/users';
import {
  invitedLiteOfficerSchema,
  liteLocationChoicesSchema,
  liteLocationInputSchema,
  liteLocationListQuerySchema,
  liteLocationPageSchema,
  liteLocationSchema,
  liteLocationUpdateSchema,
  liteOfficerInviteSchema,
  liteOfficerListQuerySchema,
  liteOfficerPageSchema,
  liteOfficerSchema,
  liteOfficerUpdateSchema,
} from '../src/contract/enforcement-lite';
import {
  copyCountsQuerySchema,
  copyCountsSchema,
  copyOptionsSchema,
  copyRequestSchema,
  copySampleQuerySchema,
  copySampleSchema,
  databaseCopyListSchema,
  databaseCopySchema,
} from '../src/contract/database-copy';
import {
  mailingContentSchema,
  mailingInputSchema,
  mailingListQuerySchema,
  mailingOptionsSchema,
  mailingPageSchema,
  mailingPreviewSchema,
  mailingSchema,
  mailingTestResultSchema,
} from '../src/contract/mailing';
import {
  citationIdField,
  citationInputSchema,
  citationListQuerySchema,
  citationPageSchema,
  citationPhotoInputSchema,
  citationPhotoSchema,
  citationSchema,
  citationVoidSchema,
  SHA256,
} from '../src/contract/citations';
import {
  citationViolationsSchema,
  locationViolationListSchema,
  locationViolationSchema,
  violationCodeField,
  violationInputSchema,
  violationUpdateSchema,
} from '../src/contract/violations';
import { FEATURE_CODES } from '../src/permissions/features';
import type { Db } from './db/db';
import { createTestApi } from './testing/test-api';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
}
interface JsonContent {
  content: { 'application/json': { schema: Record<string, unknown> } };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: JsonContent & { required?: boolean };
  responses: Record<string, JsonContent>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const noDatabase = {
  query: () => Promise.reject(new Error('the OpenAPI document needs no database')),
} as unknown as Db;

async function openApiDocument(): Promise<OpenApiDocument> {
  const result = await createTestApi(noDatabase).call('GET', '/openapi.json');
  expect(result.status).toBe(200);
  return result.body as unknown as OpenApiDocument;
}

/** The contract schema as JSON Schema (requests as sent, responses as returned), as the document should show it. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output') {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

const schemaOf = (content: JsonContent | undefined) => content?.content['application/json'].schema;

const syncRecords = z.array(z.union([transactionRecordSchema, bookingRecordSchema, monthlyParkerRecordSchema]));
const positiveId = { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER };

interface ExpectedOperation {
  path: string;
  method: string;
  parameters?: Parameter[];
  body?: z.core.$ZodType;
  /** The success data, or 'csv' for a streamed CSV download. */
  data: z.core.$ZodType | 'csv' | 'event-stream' | 'image';
  errors: number[];
}

/** Query parameters as the document lists them: one per field of the contract's query schema. */
function queryParameters(schema: z.ZodMiniObject): Parameter[] {
  return Object.entries(schema.def.shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: (field as z.core.$ZodType)._zod.optin !== 'optional',
    schema: jsonSchema(field as z.core.$ZodType, 'input'),
  }));
}
const idParameter = (name: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
});
const locationId = idParameter('locationId');
const citationId: Parameter = { name: 'citationId', in: 'path', required: true, schema: jsonSchema(citationIdField, 'input') };
const photoHash: Parameter = { name: 'sha256', in: 'path', required: true, schema: { type: 'string', pattern: SHA256.source } };
const transactionId = idParameter('transactionId');
const ticketId = idParameter('ticketId');
const promoCodeId = idParameter('promoCodeId');
const idempotencyKey: Parameter = {
  name: 'idempotency-key',
  in: 'header',
  required: true,
  schema: jsonSchema(idempotencyKeySchema, 'input'),
};

/** Every route: its parameters, request body, success data and error statuses, each from the contract. */
const OPERATIONS: ExpectedOperation[] = [
  {
    path: '/transactions/{transactionId}/refunds',
    method: 'post',
    parameters: [transactionId, idempotencyKey],
    body: refundInputSchema,
    data: refundResultSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/refund-tickets', method: 'get', parameters: queryParameters(ticketListQuerySchema), data: ticketPageSchema, errors: [400, 401, 403] },
  { path: '/refund-tickets', method: 'post', body: ticketCreateSchema, data: ticketDetailSchema, errors: [400, 401, 403, 404] },
  { path: '/refund-tickets/export', method: 'get', parameters: queryParameters(ticketListQuerySchema), data: 'csv', errors: [400, 401, 403] },
  { path: '/refund-tickets/{ticketId}', method: 'get', parameters: [ticketId], data: ticketDetailSchema, errors: [400, 401, 403, 404] },
  { path: '/refund-tickets/{ticketId}/history', method: 'get', parameters: [ticketId], data: historySchema, errors: [400, 401, 403, 404] },
  {
    path: '/refund-tickets/{ticketId}/notes',
    method: 'post',
    parameters: [ticketId],
    body: ticketNoteInputSchema,
    data: ticketDetailSchema,
    errors: [400, 401, 403, 404],
  },
  {
    path: '/refund-tickets/{ticketId}/decision',
    method: 'post',
    parameters: [ticketId],
    body: ticketDecisionSchema,
    data: ticketDetailSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/promo-codes', method: 'get', parameters: queryParameters(promoCodeListQuerySchema), data: promoCodePageSchema, errors: [400, 401, 403] },
  { path: '/promo-codes', method: 'post', body: promoCodeInputSchema, data: promoCodeSchema, errors: [400, 401, 403] },
  { path: '/promo-codes/export', method: 'get', parameters: queryParameters(promoCodeListQuerySchema), data: 'csv', errors: [400, 401, 403] },
  {
    path: '/promo-codes/redeem',
    method: 'post',
    parameters: [{ ...idempotencyKey, schema: jsonSchema(redeemIdempotencyKeySchema, 'input') }],
    body: redeemInputSchema,
    data: redemptionSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/promo-codes/locations', method: 'get', data: promoCodeLocationsSchema, errors: [401, 403] },
  { path: '/promo-codes/{promoCodeId}', method: 'get', parameters: [promoCodeId], data: promoCodeSchema, errors: [400, 401, 403, 404] },
  {
    path: '/promo-codes/{promoCodeId}',
    method: 'post',
    parameters: [promoCodeId],
    body: promoCodeUpdateSchema,
    data: promoCodeSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/promo-codes/{promoCodeId}/history', method: 'get', parameters: [promoCodeId], data: historySchema, errors: [400, 401, 403, 404] },
  {
    path: '/promo-codes/{promoCodeId}/status',
    method: 'post',
    parameters: [promoCodeId],
    body: promoCodeStatusChangeSchema,
    data: promoCodeSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/rates/locations', method: 'get', data: rateLocationRefsSchema, errors: [401, 403] },
  { path: '/rates/locations/{locationId}', method: 'get', parameters: [locationId], data: rateLocationSchema, errors: [400, 401, 403, 404] },
  { path: '/rates/locations/{locationId}/history', method: 'get', parameters: [locationId], data: historySchema, errors: [400, 401, 403] },
  {
    path: '/rates/locations/{locationId}/config',
    method: 'post',
    parameters: [locationId],
    body: rateConfigUpdateSchema,
    data: rateLocationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/rates/locations/{locationId}/changes',
    method: 'post',
    parameters: [locationId],
    body: rateChangeInputSchema,
    data: rateChangeDetailSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/rates/changes', method: 'get', parameters: queryParameters(rateChangeListQuerySchema), data: rateChangePageSchema, errors: [400, 401, 403] },
  { path: '/rates/changes/export', method: 'get', parameters: queryParameters(rateChangeListQuerySchema), data: 'csv', errors: [400, 401, 403] },
  { path: '/rates/changes/{rateSetId}', method: 'get', parameters: [idParameter('rateSetId')], data: rateChangeDetailSchema, errors: [400, 401, 403, 404] },
  {
    path: '/rates/changes/{rateSetId}/cancel',
    method: 'post',
    parameters: [idParameter('rateSetId')],
    body: rateChangeCancelSchema,
    data: rateChangeDetailSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/dashboards/realtime',
    method: 'get',
    parameters: queryParameters(realtimeQuerySchema),
    data: realtimeSummarySchema,
    errors: [400, 401, 403],
  },
  {
    path: '/dashboards/realtime/stream',
    method: 'get',
    parameters: queryParameters(realtimeQuerySchema),
    data: 'event-stream',
    errors: [400, 401, 403],
  },
  {
    path: '/dashboards/settled',
    method: 'get',
    parameters: queryParameters(settledQuerySchema),
    data: settledDashboardSchema,
    errors: [400, 401, 403],
  },
  {
    path: '/dashboards/settled/export',
    method: 'get',
    parameters: queryParameters(settledQuerySchema),
    data: 'csv',
    errors: [400, 401, 403],
  },
  {
    path: '/health',
    method: 'get',
    data: z.object({ ok: z.literal(true) }),
    errors: [],
  },
  {
    path: '/auth/permissions',
    method: 'post',
    body: permissionsLookupBodySchema,
    data: permissionsLookupDataSchema,
    errors: [400, 401, 403],
  },
  {
    path: '/validate-user-login/',
    method: 'get',
    parameters: [
      { name: 'token', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 4096 } },
    ],
    data: validateUserLoginDataSchema,
    errors: [400, 401],
  },
  { path: '/load-permissions/', method: 'get', data: loadPermissionsDataSchema, errors: [401, 403] },
  {
    path: '/locations',
    method: 'get',
    parameters: queryParameters(locationListQuerySchema),
    data: locationPageSchema,
    errors: [400, 401, 403],
  },
  { path: '/locations', method: 'post', body: locationInputSchema, data: locationSchema, errors: [400, 401, 403] },
  {
    path: '/locations/export',
    method: 'get',
    parameters: queryParameters(locationListQuerySchema),
    data: 'csv',
    errors: [400, 401, 403],
  },
  {
    path: '/locations/{locationId}',
    method: 'get',
    parameters: [locationId],
    data: locationSchema,
    errors: [400, 401, 403, 404],
  },
  {
    path: '/locations/{locationId}',
    method: 'post',
    parameters: [locationId],
    body: locationUpdateSchema,
    data: locationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/locations/{locationId}/history',
    method: 'get',
    parameters: [locationId],
    data: historySchema,
    errors: [400, 401, 403],
  },
  {
    path: '/locations/{locationId}/status',
    method: 'post',
    parameters: [locationId],
    body: locationStatusChangeSchema,
    data: locationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/locations/{locationId}/delete',
    method: 'post',
    parameters: [locationId],
    body: locationDeleteSchema,
    data: locationDeletedSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/transactions',
    method: 'get',
    parameters: queryParameters(transactionSearchSchema),
    data: transactionPageSchema,
    errors: [400, 401, 403],
  },
  {
    path: '/transactions/export',
    method: 'get',
    parameters: queryParameters(transactionSearchSchema),
    data: 'csv',
    errors: [400, 401, 403],
  },
  { path: '/transactions/locations', method: 'get', data: transactionLocationsSchema, errors: [401, 403] },
  {
    path: '/transactions/{transactionId}',
    method: 'get',
    parameters: [transactionId],
    data: transactionDetailSchema,
    errors: [400, 401, 403, 404],
  },
  {
    path: '/transactions/{transactionId}/history',
    method: 'get',
    parameters: [transactionId],
    data: historySchema,
    errors: [400, 401, 403, 404],
  },
  {
    path: '/enforcement/transactions',
    method: 'post',
    parameters: [{ name: 'type', in: 'query', required: false, schema: { type: 'string', enum: [...SYNC_TYPES] } }],
    body: enforcementRequestSchema,
    data: syncRecords,
    errors: [400, 401, 403],
  },
  // Users and roles (issue 13).
  { path: '/users', method: 'get', parameters: queryParameters(userListQuerySchema), data: userPageSchema, errors: [400, 401, 403] },
  { path: '/users', method: 'post', body: userInviteSchema, data: invitedUserSchema, errors: [400, 401, 403, 409] },
  { path: '/users/export', method: 'get', parameters: queryParameters(userListQuerySchema), data: 'csv', errors: [400, 401, 403] },
  { path: '/users/assignable-roles', method: 'get', data: assignableRolesSchema, errors: [401, 403] },
  { path: '/users/{userId}', method: 'get', parameters: [idParameter('userId')], data: userSchema, errors: [400, 401, 403, 404] },
  {
    path: '/users/{userId}',
    method: 'post',
    parameters: [idParameter('userId')],
    body: userUpdateSchema,
    data: userSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/users/{userId}/history', method: 'get', parameters: [idParameter('userId')], data: historySchema, errors: [400, 401, 403] },
  {
    path: '/users/{userId}/new-role',
    method: 'post',
    parameters: [idParameter('userId')],
    body: userNewRoleSchema,
    data: userSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/users/{userId}/status',
    method: 'post',
    parameters: [idParameter('userId')],
    body: userStatusChangeSchema,
    data: userSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/users/{userId}/delete',
    method: 'post',
    parameters: [idParameter('userId')],
    body: userDeleteSchema,
    data: userDeletedSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/roles', method: 'get', parameters: queryParameters(roleListQuerySchema), data: rolePageSchema, errors: [400, 401, 403] },
  { path: '/roles', method: 'post', body: roleInputSchema, data: roleSchema, errors: [400, 401, 403] },
  { path: '/roles/locations', method: 'get', data: roleLocationsSchema, errors: [401, 403] },
  { path: '/roles/mine/all-locations', method: 'get', data: myAllLocationsSchema, errors: [401, 403] },
  { path: '/roles/{roleId}', method: 'get', parameters: [idParameter('roleId')], data: roleSchema, errors: [400, 401, 403, 404] },
  {
    path: '/roles/{roleId}',
    method: 'post',
    parameters: [idParameter('roleId')],
    body: roleUpdateSchema,
    data: roleSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/roles/{roleId}/history', method: 'get', parameters: [idParameter('roleId')], data: historySchema, errors: [400, 401, 403] },
  {
    path: '/roles/{roleId}/delete',
    method: 'post',
    parameters: [idParameter('roleId')],
    body: roleDeleteSchema,
    data: roleDeletedSchema,
    errors: [400, 401, 403, 404, 409],
  },
  // Enforcement Lite (issue 14), superuser only.
  { path: '/enforcement-lite/locations', method: 'get', parameters: queryParameters(liteLocationListQuerySchema), data: liteLocationPageSchema, errors: [400, 401, 403] },
  { path: '/enforcement-lite/locations', method: 'post', body: liteLocationInputSchema, data: liteLocationSchema, errors: [400, 401, 403] },
  { path: '/enforcement-lite/location-choices', method: 'get', data: liteLocationChoicesSchema, errors: [401, 403] },
  { path: '/enforcement-lite/locations/{locationId}', method: 'get', parameters: [idParameter('locationId')], data: liteLocationSchema, errors: [400, 401, 403, 404] },
  {
    path: '/enforcement-lite/locations/{locationId}',
    method: 'post',
    parameters: [idParameter('locationId')],
    body: liteLocationUpdateSchema,
    data: liteLocationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/enforcement-lite/locations/{locationId}/history', method: 'get', parameters: [idParameter('locationId')], data: historySchema, errors: [400, 401, 403] },
  { path: '/enforcement-lite/officers', method: 'get', parameters: queryParameters(liteOfficerListQuerySchema), data: liteOfficerPageSchema, errors: [400, 401, 403] },
  { path: '/enforcement-lite/officers', method: 'post', body: liteOfficerInviteSchema, data: invitedLiteOfficerSchema, errors: [400, 401, 403, 409] },
  { path: '/enforcement-lite/officers/{userId}', method: 'get', parameters: [idParameter('userId')], data: liteOfficerSchema, errors: [400, 401, 403, 404] },
  {
    path: '/enforcement-lite/officers/{userId}',
    method: 'post',
    parameters: [idParameter('userId')],
    body: liteOfficerUpdateSchema,
    data: liteOfficerSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/enforcement-lite/officers/{userId}/history', method: 'get', parameters: [idParameter('userId')], data: historySchema, errors: [400, 401, 403] },
  // Database Copy (issue 14).
  { path: '/database-copy/databases', method: 'get', data: copyOptionsSchema, errors: [401, 403] },
  { path: '/database-copy/counts', method: 'get', parameters: queryParameters(copyCountsQuerySchema), data: copyCountsSchema, errors: [400, 401, 403, 404, 409] },
  { path: '/database-copy/sample', method: 'get', parameters: queryParameters(copySampleQuerySchema), data: copySampleSchema, errors: [400, 401, 403, 404] },
  { path: '/database-copies', method: 'get', data: databaseCopyListSchema, errors: [401, 403] },
  { path: '/database-copies', method: 'post', body: copyRequestSchema, data: databaseCopySchema, errors: [400, 401, 403, 409] },
  { path: '/database-copies/{copyId}', method: 'get', parameters: [idParameter('copyId')], data: databaseCopySchema, errors: [400, 401, 403, 404] },
  // Citations (issue 38).
  { path: '/citations', method: 'get', parameters: queryParameters(citationListQuerySchema), data: citationPageSchema, errors: [400, 401, 403] },
  { path: '/citations', method: 'post', body: citationInputSchema, data: citationSchema, errors: [400, 401, 403, 409] },
  { path: '/citations/export', method: 'get', parameters: queryParameters(citationListQuerySchema), data: 'csv', errors: [400, 401, 403] },
  { path: '/citations/{citationId}', method: 'get', parameters: [citationId], data: citationSchema, errors: [400, 401, 403, 404] },
  { path: '/citations/{citationId}/history', method: 'get', parameters: [citationId], data: historySchema, errors: [400, 401, 403, 404] },
  {
    path: '/citations/{citationId}/void',
    method: 'post',
    parameters: [citationId],
    body: citationVoidSchema,
    data: citationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  {
    path: '/citations/{citationId}/photos/{sha256}',
    method: 'post',
    parameters: [citationId, photoHash],
    body: citationPhotoInputSchema,
    data: citationPhotoSchema,
    errors: [400, 401, 403, 404, 409],
  },
  { path: '/citations/{citationId}/photos/{sha256}', method: 'get', parameters: [citationId, photoHash], data: 'image', errors: [400, 401, 403, 404] },
  { path: '/citation-violations', method: 'get', data: citationViolationsSchema, errors: [401, 403] },
  // Violations per location (issue 38).
  { path: '/locations/{locationId}/violations', method: 'get', parameters: [locationId], data: locationViolationListSchema, errors: [400, 401, 403, 404] },
  {
    path: '/locations/{locationId}/violations',
    method: 'post',
    parameters: [locationId],
    body: violationInputSchema,
    data: locationViolationSchema,
    errors: [400, 401, 403, 404],
  },
  {
    path: '/locations/{locationId}/violations/{code}',
    method: 'post',
    parameters: [locationId, { name: 'code', in: 'path', required: true, schema: jsonSchema(violationCodeField, 'input') }],
    body: violationUpdateSchema,
    data: locationViolationSchema,
    errors: [400, 401, 403, 404, 409],
  },
  // Mailing (issue 14).
  { path: '/mailings/options', method: 'get', data: mailingOptionsSchema, errors: [401, 403] },
  { path: '/mailings/preview', method: 'post', body: mailingInputSchema, data: mailingPreviewSchema, errors: [400, 401, 403] },
  { path: '/mailings/test', method: 'post', body: mailingContentSchema, data: mailingTestResultSchema, errors: [400, 401, 403, 409] },
  { path: '/mailings', method: 'get', parameters: queryParameters(mailingListQuerySchema), data: mailingPageSchema, errors: [400, 401, 403] },
  { path: '/mailings', method: 'post', body: mailingInputSchema, data: mailingSchema, errors: [400, 401, 403] },
  { path: '/mailings/{mailingId}', method: 'get', parameters: [idParameter('mailingId')], data: mailingSchema, errors: [400, 401, 403, 404] },
];

describe('the OpenAPI document', () => {
  it('lists every route once, with nothing else', async () => {
    const document = await openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    const listed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(listed.sort()).toEqual(OPERATIONS.map(({ method, path }) => `${method} ${path}`).sort());
  });

  it.each(OPERATIONS)('documents $method $path from the contract', async (expected) => {
    const operation = (await openApiDocument()).paths[expected.path]?.[expected.method];
    expect(operation).toBeDefined();
    if (!operation) return;
    expect(operation.parameters).toEqual(expected.parameters);
    if (expected.body) {
      expect(operation.requestBody?.required).toBe(true);
      expect(schemaOf(operation.requestBody)).toEqual(jsonSchema(expected.body, 'input'));
    } else {
      expect(operation.requestBody).toBeUndefined();
    }
    if (expected.data === 'csv') {
      expect(Object.keys((operation.responses['200'] as unknown as { content: object }).content)).toEqual(['text/csv']);
    } else if (expected.data === 'image') {
      expect(Object.keys((operation.responses['200'] as unknown as { content: object }).content)).toEqual(['image/*']);
    } else if (expected.data === 'event-stream') {
      expect(Object.keys((operation.responses['200'] as unknown as { content: object }).content)).toEqual(['text/event-stream']);
    } else {
      expect(schemaOf(operation.responses['200'])).toEqual(jsonSchema(successEnvelope(expected.data), 'output'));
    }
    expect(Object.keys(operation.responses).sort()).toEqual(['200', ...expected.errors.map(String)].sort());
    for (const status of expected.errors) {
      expect(schemaOf(operation.responses[String(status)]), String(status)).toEqual(
        jsonSchema(errorEnvelopeSchema, 'output'),
      );
    }
  });

  it('spells out the fields a client needs', async () => {
    const { paths } = await openApiDocument();
    const lookup = paths['/auth/permissions']?.post;
    expect(schemaOf(lookup?.requestBody)).toMatchObject({
      type: 'object',
      properties: { email: { type: 'string', format: 'email', maxLength: 254 } },
      required: ['email'],
    });
    const userData = schemaOf(lookup?.responses['200']) as {
      properties: { data: { properties: { userData: { properties: Record<string, { properties?: object }> } } } };
    };
    const { properties } = userData.properties.data.properties.userData;
    expect(properties.token).toEqual({ type: 'string' });
    expect(Object.keys(properties.featureLevelLocations?.properties ?? {})).toEqual([
      'default',
      'features',
      'enforcementLocations',
      'canAddLocation',
    ]);
    const features = (properties.featureLevelLocations?.properties as { features: { properties: object } }).features;
    expect(Object.keys(features.properties)).toEqual(FEATURE_CODES);

    const sync = schemaOf(paths['/enforcement/transactions']?.post?.requestBody);
    expect(sync).toMatchObject({
      properties: {
        locationId: { type: 'array', minItems: 1, maxItems: 500, items: positiveId },
        limit: { type: 'integer', minimum: 1, maximum: 2000 },
      },
      required: ['type', 'locationId', 'limit'],
    });
    expect(schemaOf(paths['/locations']?.get?.responses['403'])).toMatchObject({
      properties: { success: { const: false }, message: { type: 'string' }, error: { type: 'string' } },
      required: ['success', 'message'],
    });
  });
});
