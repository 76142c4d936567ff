import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRoleChange } from './escalation';
import { ACCESS_LEVELS, FEATURE_CODES, type PermissionRecord } from './features';
import { cellEditable, describeChanges, describeRole, levelAt, offeredLevels, setColumn, setRow, withLevelAt } from './role-matrix';
import { hasPermission } from './rules';

const LOCATIONS = [1, 2, 3, 4];
const ids = fc.uniqueArray(fc.constantFrom(...LOCATIONS), { maxLength: 3 });
const grant = fc.record({ v: ids, a: ids, e: ids, d: ids });
const record: fc.Arbitrary<PermissionRecord> = fc
  .record({ pc: fc.option(grant, { nil: undefined }), lo: fc.option(grant, { nil: undefined }) })
  .map((r) => ({ su: false, ...(r.pc ? { pc: r.pc } : {}), ...(r.lo ? { lo: r.lo } : {}) }));
const feature = fc.constantFrom('pc' as const, 'lo' as const);
const location = fc.constantFrom(...LOCATIONS);
const level = fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: null });
const names = (id: number) => ['', 'Union Station Garage', 'Navy Pier East Lot', 'Pike Place Market Garage', 'Back Bay'][id]!;

describe('role matrix', () => {
  it('a cell set to a level grants exactly that level and the lower ones there, nothing else changes', () => {
    fc.assert(
      fc.property(record, feature, location, level, (role, f, id, lvl) => {
        const next = withLevelAt(role, f, id, lvl);
        expect(levelAt(next, f, id)).toBe(lvl);
        for (const l of ACCESS_LEVELS) {
          const expected = lvl !== null && ACCESS_LEVELS.indexOf(l) <= ACCESS_LEVELS.indexOf(lvl);
          expect(hasPermission(next, f, l, [id])).toBe(expected);
        }
        for (const other of FEATURE_CODES)
          for (const otherId of LOCATIONS)
            if (other !== f || otherId !== id) expect(levelAt(next, other, otherId)).toBe(levelAt(role, other, otherId));
      }),
      { numRuns: 300 },
    );
  });

  it('shortcuts and offered levels never make a change the server would refuse', () => {
    fc.assert(
      fc.property(record, record, feature, location, level, (editor, role, f, id, lvl) => {
        expect(checkRoleChange(editor, role, setRow(editor, role, f, LOCATIONS, lvl)).ok).toBe(true);
        expect(checkRoleChange(editor, role, setColumn(editor, role, id, lvl)).ok).toBe(true);
        if (cellEditable(editor, role, f, id)) {
          for (const offered of [null, ...offeredLevels(editor, f, id)]) {
            expect(checkRoleChange(editor, role, withLevelAt(role, f, id, offered)).ok).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('offers promo codes only where the editor holds them', () => {
    const editor: PermissionRecord = { su: false, ur: { v: [], a: [], e: [1, 2, 3], d: [] }, pc: { v: [], a: [], e: [3], d: [] } };
    expect(offeredLevels(editor, 'pc', 3)).toEqual(['view', 'add', 'edit']);
    expect(offeredLevels(editor, 'pc', 1)).toEqual([]);
    expect(cellEditable(editor, { su: false, pc: { v: [], a: [], e: [], d: [3] } }, 'pc', 3)).toBe(false);
  });

  it('says a role and a change in words', () => {
    const role: PermissionRecord = { su: false, pc: { v: [1], a: [3], e: [], d: [] } };
    expect(describeRole(role, names)).toEqual(['Promo codes: add at Pike Place Market Garage; view at Union Station Garage']);
    expect(describeRole({ su: false, lo: { v: [1, 2, 3], a: [], e: [], d: [] } }, names)).toEqual([
      'Locations: view at Union Station Garage, Navy Pier East Lot and Pike Place Market Garage',
    ]);
    expect(describeChanges(role, withLevelAt(role, 'pc', 3, 'edit'), names)).toEqual([
      { kind: 'added', words: 'Adds Promo codes: edit at Pike Place Market Garage' },
    ]);
    expect(describeChanges(role, withLevelAt(role, 'pc', 1, null), names)).toEqual([
      { kind: 'removed', words: 'Removes Promo codes: view at Union Station Garage' },
    ]);
  });
});
