import { FEATURE_CODES, type FeatureGrant, type PermissionRecord } from './features';
import { derivePermissions, type FeatureLevelLocations, type UserPermissions } from './permissions-object';

/**
 * Rebuilds the permissions object from what the stored session keeps (spec §3 `lpa`: the session token and
 * featureLevelLocations), for a session restored without the server (offline).
 *
 * featureLevelLocations already has the implication rules applied (edit implies view and add, delete implies all),
 * so a permission record whose v/a/e/d lists are those per-level lists passes exactly the same `hasPermission`
 * checks as the user's own record. The superuser flag is not kept in the session, so a restored session is never a
 * superuser: superuser-only sections stay hidden until the server confirms the session again.
 */
export function permissionsFromCache(input: {
  featureLevelLocations: FeatureLevelLocations;
  email: string;
  token: string;
}): UserPermissions {
  const { featureLevelLocations, email, token } = input;
  const record: PermissionRecord = { su: false };
  for (const code of FEATURE_CODES) {
    const levels = featureLevelLocations.features[code];
    const grant: FeatureGrant = { v: levels.view, a: levels.add, e: levels.edit, d: levels.delete };
    // A feature with no location at any level grants nothing; leave it out, as the server's records do.
    if (grant.v.length + grant.a.length + grant.e.length + grant.d.length > 0) record[code] = grant;
  }
  const derived = derivePermissions({ record, email, token, locations: featureLevelLocations.enforcementLocations });
  // Only the enforcement locations' names are kept, so every location list comes from the cache as it was stored.
  return { ...derived, featureLevelLocations };
}
