import { describe, expect, it } from 'vitest';
import { ALL_LOCATIONS, holdings, splitAllLocations } from './all-locations';
import { describeChanges, describeRole } from './role-matrix';
import { hasPermission } from './rules';

const names: Record<number, string> = { 1: 'Union Station Garage', 3: 'Pike Place Market Garage' };
const named = (id: number) => names[id] ?? `location ${id}`;

describe('grants at all locations, now and later', () => {
  it('are held at every location given and at ALL_LOCATIONS, at their level and below', () => {
    const held = holdings({ su: false, pc: { v: [7], a: [], e: [], d: [] } }, { pc: 'edit' }, [1, 3]);
    for (const id of [1, 3, ALL_LOCATIONS]) expect(hasPermission(held, 'pc', 'edit', [id])).toBe(true);
    expect(hasPermission(held, 'pc', 'delete', [1])).toBe(false);
    // What the role lists itself stays, and a location not given is not reached through the grant.
    expect(hasPermission(held, 'pc', 'view', [7])).toBe(true);
    expect(hasPermission(held, 'pc', 'edit', [7])).toBe(false);
  });

  it('split back into the record and the grants, whatever the record lists at ALL_LOCATIONS', () => {
    const record = holdings({ su: false, rs: { v: [1], a: [], e: [], d: [] } }, { pc: 'add', rs: 'view' }, []);
    expect(splitAllLocations(record)).toEqual({
      permissions: { su: false, rs: { v: [1], a: [], e: [], d: [] } },
      all_locations: { pc: 'add', rs: 'view' },
    });
  });

  it('are said in words first, without naming again the locations they cover', () => {
    const record = holdings({ su: false, pc: { v: [], a: [], e: [3], d: [] } }, { pc: 'edit', rs: 'view' }, [1, 3]);
    expect(describeRole(record, named)).toEqual([
      'Promo codes: edit at all locations, now and later',
      'Rate settings: view at all locations, now and later',
    ]);
    const deleteAtPike = holdings({ su: false, pc: { v: [], a: [], e: [], d: [3] } }, { pc: 'view' }, [1, 3]);
    expect(describeRole(deleteAtPike, named)).toEqual([
      'Promo codes: delete at Pike Place Market Garage; view at all locations, now and later',
    ]);
    expect(describeChanges({ su: false }, holdings({ su: false }, { lo: 'add' }, []), named).map((c) => c.words)).toEqual([
      'Adds Locations: view at all locations, now and later',
      'Adds Locations: add at all locations, now and later',
    ]);
  });
});
