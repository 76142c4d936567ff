import type { Context } from 'hono';
import { canonicalIdParam } from '../../src/contract/ids';
import type { AccessLevel, FeatureCode } from '../../src/permissions/features';
import { hasPermission, locationsLacking } from '../../src/permissions/rules';
import { failure } from './responses';
import type { StaffEnv } from './staff-env';

/**
 * What a route refuses as soon as the staff member is known: in the session middleware, so before the body, query
 * and path are validated, and someone refused learns nothing of the fields (a 403, never a 400 naming them).
 */
export interface FirstRefusals {
  /** The route's feature at `level` at one location at least (spec §6), else `refusal`. */
  feature?: { code: FeatureCode; level: AccessLevel; refusal: string };
  /** Spec §2/§6: a section of the superusers' (Enforcement Lite, Mailing, Database Copy); the 403's sentence. */
  superuserOnly?: string;
  /**
   * Spec §5 for a list filtered by location (`?locationId=`): the filter names a location, so the user must hold
   * `feature` there; `records` names the rows in the refusal ("the promo codes").
   */
  locationFilter?: { feature: FeatureCode; records: string };
  /** Any other refusal before the request is read (Database Copy's production admin host). */
  refuse?: (c: Context<StaffEnv>) => Response | null;
}

const LOCATION_ID = canonicalIdParam();

export function firstRefusal(c: Context<StaffEnv>, first: FirstRefusals): Response | null {
  const { record } = c.get('staff');
  if (first.superuserOnly !== undefined && !record.su) return c.json(failure(first.superuserOnly), 403);
  if (first.feature && !hasPermission(record, first.feature.code, first.feature.level)) {
    return c.json(failure(first.feature.refusal), 403);
  }
  if (first.locationFilter) {
    // Refused at the location it names, as a record there would be, not answered with an empty page. A value that is
    // no location id is left to the query's validation (400).
    const raw = c.req.query('locationId');
    const parsed = raw === undefined ? undefined : LOCATION_ID.safeParse(raw);
    const { feature, records } = first.locationFilter;
    if (parsed?.success && locationsLacking(record, feature, 'view', [parsed.data]).length > 0) {
      return c.json(failure(`You do not have permission to view ${records} of location ${parsed.data}.`), 403);
    }
  }
  return first.refuse?.(c) ?? null;
}
