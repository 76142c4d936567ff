import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_LEVELS,
  FEATURE_CODES,
  LEVEL_KEYS,
  type AccessLevel,
  type FeatureCode,
  type PermissionRecord,
} from './features';
import { hasPermission, locationsLacking, locationsWithAccess } from './rules';

const LOCATION_IDS = [1, 2, 3, 4, 5, 6, 7, 8];
const locationId = fc.constantFrom(...LOCATION_IDS);
const idList = fc.uniqueArray(locationId, { maxLength: 5 });
const feature = fc.constantFrom(...FEATURE_CODES);
const level = fc.constantFrom(...ACCESS_LEVELS);
const grant = fc.record({ v: idList, a: idList, e: idList, d: idList });
const record: fc.Arbitrary<PermissionRecord> = fc.record(
  { su: fc.boolean(), ...Object.fromEntries(FEATURE_CODES.map((code) => [code, grant])) },
  { requiredKeys: ['su'] },
) as fc.Arbitrary<PermissionRecord>;
const staffRecord = record.map((r): PermissionRecord => ({ ...r, su: false }));
const someIds = fc.uniqueArray(locationId, { minLength: 1, maxLength: 4 });

/** Spec §5 written independently: a location counts at `wanted` when listed at that level or any higher one. */
function holds(r: PermissionRecord, code: FeatureCode, wanted: AccessLevel, id: number): boolean {
  const g = r[code];
  if (!g) return false;
  return ACCESS_LEVELS.slice(ACCESS_LEVELS.indexOf(wanted)).some((held) => g[LEVEL_KEYS[held]].includes(id));
}

describe('hasPermission (spec §5)', () => {
  it('lets a superuser pass every check', () => {
    fc.assert(
      fc.property(record, feature, level, fc.option(someIds, { nil: undefined }), (r, code, lvl, ids) => {
        expect(hasPermission({ ...r, su: true }, code, lvl, ids)).toBe(true);
      }),
    );
  });

  it('treats a held level as holding every lower level at that location', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, locationId, (r, code, heldLevel, id) => {
        const g = r[code] ?? { v: [], a: [], e: [], d: [] };
        const withGrant: PermissionRecord = {
          ...r,
          [code]: { ...g, [LEVEL_KEYS[heldLevel]]: [...g[LEVEL_KEYS[heldLevel]], id] },
        };
        for (const lower of ACCESS_LEVELS.slice(0, ACCESS_LEVELS.indexOf(heldLevel) + 1)) {
          expect(hasPermission(withGrant, code, lower, [id]), `${heldLevel} implies ${lower}`).toBe(true);
        }
      }),
    );
  });

  it('treats delete as every level', () => {
    fc.assert(
      fc.property(feature, someIds, (code, ids) => {
        const r: PermissionRecord = { su: false, [code]: { v: [], a: [], e: [], d: ids } };
        for (const lvl of ACCESS_LEVELS) expect(hasPermission(r, code, lvl, ids)).toBe(true);
      }),
    );
  });

  it('never grants more than the record holds', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, locationId, (r, code, lvl, id) => {
        expect(hasPermission(r, code, lvl, [id])).toBe(holds(r, code, lvl, id));
      }),
    );
  });

  it('requires every given location to be held', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, someIds, (r, code, lvl, ids) => {
        expect(hasPermission(r, code, lvl, ids)).toBe(ids.every((id) => holds(r, code, lvl, id)));
      }),
    );
  });

  it('is satisfied by any held location when none are given', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, (r, code, lvl) => {
        expect(hasPermission(r, code, lvl)).toBe(LOCATION_IDS.some((id) => holds(r, code, lvl, id)));
      }),
    );
  });

  it('fails for a feature the record lacks', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, fc.option(someIds, { nil: undefined }), (r, code, lvl, ids) => {
        const { [code]: _absent, ...rest } = r;
        expect(hasPermission(rest as PermissionRecord, code, lvl, ids)).toBe(false);
      }),
    );
  });

  it('checks view when no level is given', () => {
    fc.assert(
      fc.property(record, feature, fc.option(someIds, { nil: undefined }), (r, code, ids) => {
        expect(hasPermission(r, code, undefined, ids)).toBe(hasPermission(r, code, 'view', ids));
      }),
    );
  });
});

describe('locationsWithAccess', () => {
  it('lists exactly the locations that pass hasPermission, sorted', () => {
    fc.assert(
      fc.property(staffRecord, feature, level, (r, code, lvl) => {
        expect(locationsWithAccess(r, code, lvl)).toEqual(
          LOCATION_IDS.filter((id) => hasPermission(r, code, lvl, [id])),
        );
      }),
    );
  });
});

describe('locationsLacking (spec §5 with location ids, for refusals that name them)', () => {
  it('names exactly the given locations the record does not hold, sorted and once each; none for a superuser', () => {
    fc.assert(
      fc.property(record, feature, level, fc.array(locationId, { maxLength: 6 }), (r, code, lvl, ids) => {
        const expected = r.su ? [] : [...new Set(ids)].filter((id) => !holds(r, code, lvl, id)).sort((a, b) => a - b);
        expect(locationsLacking(r, code, lvl, ids)).toEqual(expected);
      }),
    );
  });
});
