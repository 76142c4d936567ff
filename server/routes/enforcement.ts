import { z } from '@hono/zod-openapi';
import {
  bookingRecordSchema,
  ENFORCEMENT_TRANSACTIONS_PATH,
  enforcementQuerySchema,
  enforcementRequestSchema,
  monthlyParkerRecordSchema,
  transactionRecordSchema,
} from '../../src/contract/enforcement';
import { syncPageJson } from '../db/enforcement';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { badRequest, okJson, refused } from '../http/outcome';
import { serverSection } from '../http/section-kit';

const syncRecordsSchema = z.array(z.union([transactionRecordSchema, bookingRecordSchema, monthlyParkerRecordSchema]));

export function registerEnforcementRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'enforcement', feature: 'e', records: 'enforcement records' });

  section.route({
    method: 'post',
    path: ENFORCEMENT_TRANSACTIONS_PATH,
    summary: 'One page of enforcement sync records (spec §4, §7)',
    description:
      'Records of `type` at the listed locations with updated_at ≥ floor(updated_at / 1000), ordered by ' +
      '(updated_at, key), skipping `offset`, at most `limit`. valid: expiry later than now; expired: expiry in the ' +
      'last 21 days; spothero, parkwhiz: bookings whose expiry is later than 21 days ago; monthly_parkers: all. ' +
      'Needs enforcement view on every listed location. `?type=`, when sent, must equal the body type.',
    // The refusal names the listed locations the officer lacks (below), which only the body tells.
    access: 'signedIn',
    query: enforcementQuerySchema,
    body: enforcementRequestSchema,
    data: syncRecordsSchema,
    answers: 'The page; shorter than `limit` (possibly empty) when there is nothing more',
    handle: async ({ db, query, body, lacking, now }) => {
      if (query.type !== undefined && query.type !== body.type) {
        return badRequest(`Invalid request: ?type=${query.type} does not match the body type ${body.type}.`);
      }
      // The officer must hold every listed location; naming the refused ones tells the console what to drop.
      const refusedIds = lacking('view', body.locationId);
      if (refusedIds.length) {
        const plural = refusedIds.length === 1 ? 'location' : 'locations';
        return refused(`You do not have enforcement permission for ${plural} ${refusedIds.join(', ')}.`);
      }
      // The records' JSON comes from the database as it is sent (server/db/enforcement.ts): not parsed to be written
      // again.
      return okJson(
        await syncPageJson(db, {
          type: body.type,
          locationIds: body.locationId,
          updatedAtFrom: Math.floor((body.updated_at ?? 0) / 1000),
          offset: body.offset ?? 0,
          limit: body.limit,
          now,
        }),
      );
    },
  });
}
