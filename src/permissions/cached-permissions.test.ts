import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { permissionsFromCache } from './cached-permissions';
import { ACCESS_LEVELS, FEATURE_CODES, type PermissionRecord } from './features';
import { derivePermissions, userPermissionsSchema, type LocationRef, type UserPermissions } from './permissions-object';
import { hasPermission } from './rules';

const LOCATIONS: LocationRef[] = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 2, name: 'Navy Pier East Lot', time_zone: 'America/Chicago' },
  { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' },
  { location_id: 4, name: 'Back Bay Center Garage', time_zone: 'America/New_York' },
];
const ALL = [1, 2, 3, 4];
const none = { v: [], a: [], e: [], d: [] };

const derive = (record: PermissionRecord) =>
  derivePermissions({ record, email: 'officer@example.com', token: 'session-token', locations: LOCATIONS });
/** What the stored session keeps of userData, rebuilt. */
const restore = (userData: UserPermissions) =>
  permissionsFromCache({
    featureLevelLocations: userData.featureLevelLocations,
    email: userData.email,
    token: userData.token,
  });

/** Every location-id subset of ALL, the empty one included (which means "any location"). */
const SUBSETS = Array.from({ length: 1 << ALL.length }, (_, mask) => ALL.filter((_, i) => mask & (1 << i)));

const arbitraryRecord = (su: fc.Arbitrary<boolean>) => {
  const ids = fc.uniqueArray(fc.constantFrom(...ALL), { maxLength: 4 });
  const grant = fc.record({ v: ids, a: ids, e: ids, d: ids });
  return fc.record(
    { su, ...Object.fromEntries(FEATURE_CODES.map((code) => [code, grant])) },
    { requiredKeys: ['su'] },
  ) as fc.Arbitrary<PermissionRecord>;
};

describe('permissionsFromCache', () => {
  it("restores an officer's permissions object as the server derived it", () => {
    const officer: PermissionRecord = { su: false, e: { ...none, v: [2, 1] } };
    const userData = derive(officer);
    const restored = restore(userData);
    expect(restored).toEqual({ ...userData, permissions: { su: false, e: { v: [1, 2], a: [], e: [], d: [] } } });
    expect(restored.featureLevelLocations.enforcementLocations).toEqual([LOCATIONS[0], LOCATIONS[1]]);
  });

  it('passes the same checks as the original record, for any record that is not a superuser', () => {
    fc.assert(
      fc.property(arbitraryRecord(fc.constant(false)), (record) => {
        const userData = derive(record);
        const restored = restore(userData);
        expect(userPermissionsSchema.safeParse(restored).success).toBe(true);
        // Every flag, ability and location list is what the server derived; only the raw record is rebuilt.
        const { permissions: rebuilt, ...restoredRest } = restored;
        const { permissions: _original, ...derivedRest } = userData;
        expect(restoredRest).toEqual(derivedRest);
        for (const code of FEATURE_CODES) {
          for (const level of ACCESS_LEVELS) {
            for (const ids of SUBSETS) {
              expect(hasPermission(rebuilt, code, level, ids)).toBe(hasPermission(record, code, level, ids));
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('never restores a superuser: the flag is not cached, everything else still passes at every location', () => {
    const restored = restore(derive({ su: true }));
    expect(restored.superuser).toBe(false);
    expect(restored.permissions.su).toBe(false);
    expect(restored.hasEnforcementPermission).toBe(true);
    expect(restored.hasUserRolePermission).toBe(true);
    expect(restored.featureLevelLocations.canAddLocation).toBe(true);
    for (const code of FEATURE_CODES) {
      for (const level of ACCESS_LEVELS) expect(hasPermission(restored.permissions, code, level, ALL)).toBe(true);
    }
  });

  it('keeps the e-mail and token it is given, and grants nothing to a user without permissions', () => {
    const restored = permissionsFromCache({
      featureLevelLocations: derive({ su: false }).featureLevelLocations,
      email: 'noaccess@example.com',
      token: 'cached-token',
    });
    expect(restored).toMatchObject({ email: 'noaccess@example.com', token: 'cached-token', permissions: { su: false } });
    expect(Object.keys(restored.permissions)).toEqual(['su']);
    expect(restored.hasEnforcementPermission).toBe(false);
  });
});
