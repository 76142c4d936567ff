import { describe, expect, it } from 'vitest';
import { permissionRecordFromGrants } from './staff';

describe('permissionRecordFromGrants', () => {
  it('folds grant rows into sorted v/a/e/d lists per feature, omitting features without rows', () => {
    const record = permissionRecordFromGrants(false, [
      { feature: 'e', level: 'view', location_id: 2 },
      { feature: 'e', level: 'view', location_id: 1 },
      { feature: 'pc', level: 'add', location_id: 3 },
      { feature: 'lo', level: 'delete', location_id: 4 },
    ]);
    expect(record).toEqual({
      su: false,
      e: { v: [1, 2], a: [], e: [], d: [] },
      pc: { v: [], a: [3], e: [], d: [] },
      lo: { v: [], a: [], e: [], d: [4] },
    });
  });

  it('lists a location once when the role lists it and a grant at all locations reaches it too', () => {
    const record = permissionRecordFromGrants(false, [
      { feature: 'pc', level: 'edit', location_id: 3 },
      { feature: 'pc', level: 'edit', location_id: 1 },
      { feature: 'pc', level: 'edit', location_id: 3 },
    ]);
    expect(record.pc).toEqual({ v: [], a: [], e: [1, 3], d: [] });
  });

  it('marks superuser roles', () => {
    expect(permissionRecordFromGrants(true, [])).toEqual({ su: true });
  });
});
