import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, FEATURE_CODES, type PermissionRecord } from './features';
import { derivePermissions, userPermissionsSchema, type LocationRef } from './permissions-object';
import { hasPermission } from './rules';

const LOCATIONS: LocationRef[] = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 2, name: 'Navy Pier East Lot', time_zone: 'America/Chicago' },
  { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' },
  { location_id: 4, name: 'Back Bay Center Garage', time_zone: 'America/New_York' },
];
const ALL = [1, 2, 3, 4];
const none = { v: [], a: [], e: [], d: [] };
const FLAGS = [
  'hasEnforcementPermission',
  'hasRateSettingsPermission',
  'hasPromoCodePermission',
  'hasRefundPortalPermission',
  'hasUserPermission',
  'hasUserRolePermission',
  'hasSettledDashboardPermission',
  'hasRealTimeDashboardPermission',
  'hasLocationsPermissions',
] as const;

const derive = (record: PermissionRecord) =>
  derivePermissions({ record, email: 'someone@example.com', token: 'session-token', locations: LOCATIONS });
const flagsOn = (record: PermissionRecord) => {
  const userData = derive(record);
  return FLAGS.filter((flag) => userData[flag]);
};

describe('derivePermissions', () => {
  it('gives a superuser every flag and every location at every level', () => {
    const userData = derive({ su: true });
    expect(userData.superuser).toBe(true);
    expect(flagsOn({ su: true })).toEqual(FLAGS);
    for (const code of FEATURE_CODES) {
      expect(userData.featureLevelLocations.features[code]).toEqual({ view: ALL, add: ALL, edit: ALL, delete: ALL });
    }
    expect(userData.featureLevelLocations.default).toEqual(ALL);
    expect(userData.featureLevelLocations.enforcementLocations).toEqual(LOCATIONS);
    expect(userData.featureLevelLocations.canAddLocation).toBe(true);
    expect(userData.promoCodePermissions).toEqual({ canEdit: true, canAdd: true });
    expect(userData.rateSettingsPermissions).toEqual({ canEdit: true });
  });

  it('gives an administrator with delete everywhere every flag, without superuser', () => {
    const admin: PermissionRecord = {
      su: false,
      ...Object.fromEntries(FEATURE_CODES.map((code) => [code, { ...none, d: ALL }])),
    };
    const userData = derive(admin);
    expect(userData.superuser).toBe(false);
    expect(flagsOn(admin)).toEqual(FLAGS);
    expect(userData.featureLevelLocations.canAddLocation).toBe(true);
    expect(userData.featureLevelLocations.features.rs.edit).toEqual(ALL);
  });

  it("lists an officer's enforcement locations with names and time zones", () => {
    const officer: PermissionRecord = { su: false, e: { ...none, v: [2, 1] } };
    const userData = derive(officer);
    expect(flagsOn(officer)).toEqual(['hasEnforcementPermission']);
    expect(userData.featureLevelLocations.enforcementLocations).toEqual([LOCATIONS[0], LOCATIONS[1]]);
    expect(userData.featureLevelLocations.features.e).toEqual({ view: [1, 2], add: [], edit: [], delete: [] });
    expect(userData.featureLevelLocations.default).toEqual([1, 2]);
  });

  it('gives finance its dashboards and refunds, nothing else', () => {
    const finance: PermissionRecord = {
      su: false,
      rd: { ...none, v: ALL },
      sd: { ...none, v: ALL },
      rp: { ...none, v: ALL },
    };
    expect(flagsOn(finance).sort()).toEqual(
      ['hasRealTimeDashboardPermission', 'hasRefundPortalPermission', 'hasSettledDashboardPermission'].sort(),
    );
    expect(derive(finance).featureLevelLocations.enforcementLocations).toEqual([]);
  });

  it('lets a promo user add, not edit, promo codes', () => {
    const promo: PermissionRecord = { su: false, pc: { ...none, v: [3], a: [3] } };
    expect(flagsOn(promo)).toEqual(['hasPromoCodePermission']);
    expect(derive(promo).promoCodePermissions).toEqual({ canEdit: false, canAdd: true });
  });

  it('gives a user without permissions nothing', () => {
    const userData = derive({ su: false });
    expect(flagsOn({ su: false })).toEqual([]);
    expect(userData.featureLevelLocations.default).toEqual([]);
    expect(userData.featureLevelLocations.canAddLocation).toBe(false);
  });

  it('derives canAddLocation from location add, which edit implies and view does not', () => {
    expect(derive({ su: false, lo: { ...none, v: ALL } }).featureLevelLocations.canAddLocation).toBe(false);
    expect(derive({ su: false, lo: { ...none, a: [1] } }).featureLevelLocations.canAddLocation).toBe(true);
    expect(derive({ su: false, lo: { ...none, e: [4] } }).featureLevelLocations.canAddLocation).toBe(true);
  });

  it('passes the token, e-mail and raw record through', () => {
    const record: PermissionRecord = { su: false, u: { ...none, v: [1] } };
    expect(derive(record)).toMatchObject({ token: 'session-token', email: 'someone@example.com', permissions: record });
  });

  it('agrees with hasPermission for any record and matches the shared schema', () => {
    const ids = fc.uniqueArray(fc.constantFrom(...ALL), { maxLength: 4 });
    const grant = fc.record({ v: ids, a: ids, e: ids, d: ids });
    const record = fc.record(
      { su: fc.boolean(), ...Object.fromEntries(FEATURE_CODES.map((code) => [code, grant])) },
      { requiredKeys: ['su'] },
    ) as fc.Arbitrary<PermissionRecord>;
    fc.assert(
      fc.property(record, (r) => {
        const userData = derive(r);
        expect(userPermissionsSchema.safeParse(userData).success).toBe(true);
        for (const code of FEATURE_CODES) {
          for (const level of ACCESS_LEVELS) {
            expect(userData.featureLevelLocations.features[code][level]).toEqual(
              ALL.filter((id) => hasPermission(r, code, level, [id])),
            );
          }
        }
        expect(userData.hasLocationsPermissions).toBe(hasPermission(r, 'lo'));
      }),
      { numRuns: 200 },
    );
  });
});
