import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdings, type AllLocations } from './all-locations';
import { checkRoleChange, checkUserChange, changedTriples, describeRefusal, mayGiveRole, mayGrant } from './escalation';
import { ACCESS_LEVELS, FEATURE_CODES, type AccessLevel, type FeatureCode, type PermissionRecord } from './features';

/*
 * The reference is written from the sentence, not from escalation.ts: over the whole (small) universe of
 * triples, a record "holds" (f, level, x) when x is listed for f at that level or a higher one; the editor may make
 * a change exactly when every triple whose holding differs before and after is one the editor holds, or the editor
 * is a superuser; only a superuser touches a superuser role; nobody changes their own account.
 */
const LOCATIONS = [1, 2, 3, 4];
const LEVELS = ['v', 'a', 'e', 'd'] as const;
type LevelKey = (typeof LEVELS)[number];
const LEVEL_NAME = { v: 'view', a: 'add', e: 'edit', d: 'delete' } as const;

function referenceHolds(r: PermissionRecord, f: FeatureCode, level: LevelKey, x: number): boolean {
  if (r.su) return true;
  const grant = r[f];
  if (!grant) return false;
  // view ⊂ add ⊂ edit ⊂ delete: listing x at a level grants x at that level and every lower one.
  const atOrAbove = { v: ['v', 'a', 'e', 'd'], a: ['a', 'e', 'd'], e: ['e', 'd'], d: ['d'] }[level] as LevelKey[];
  return atOrAbove.some((k) => grant[k].includes(x));
}

function referenceAccepts(editor: PermissionRecord, before: PermissionRecord, after: PermissionRecord): boolean {
  if (editor.su) return true;
  if (before.su || after.su) return false;
  for (const f of FEATURE_CODES) {
    for (const level of LEVELS) {
      for (const x of LOCATIONS) {
        if (referenceHolds(before, f, level, x) !== referenceHolds(after, f, level, x)) {
          if (!referenceHolds(editor, f, level, x)) return false;
        }
      }
    }
  }
  return true;
}

const ids = fc.uniqueArray(fc.constantFrom(...LOCATIONS), { maxLength: 3 });
const grant = fc.record({ v: ids, a: ids, e: ids, d: ids });
/** Few features per record, so that editors often hold what a change touches and both verdicts are common. */
const FEW = FEATURE_CODES.slice(0, 3);
const record = (suWeight: number): fc.Arbitrary<PermissionRecord> =>
  fc
    .record({
      su: fc.integer({ min: 1, max: 100 }).map((n) => n <= suWeight),
      ...Object.fromEntries(FEW.map((code) => [code, fc.option(grant, { nil: undefined })])),
    })
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as PermissionRecord);

/** `after` = `before` with a few toggles, each within the editor's holdings or anywhere, so both outcomes occur. */
const change = fc
  .tuple(
    record(10),
    record(5),
    fc.array(
      fc.tuple(fc.constantFrom(...FEW), fc.constantFrom(...LEVELS), fc.constantFrom(...LOCATIONS), fc.boolean()),
      { maxLength: 4 },
    ),
    fc.integer({ min: 1, max: 100 }),
  )
  .map(([editor, before, toggles, suFlip]) => {
    const after: PermissionRecord = structuredClone(before);
    for (const [f, level, x, onlyHeld] of toggles) {
      if (onlyHeld && !referenceHolds(editor, f, level, x)) continue;
      const g = (after[f] ??= { v: [], a: [], e: [], d: [] });
      g[level] = g[level].includes(x) ? g[level].filter((id) => id !== x) : [...g[level], x];
    }
    if (suFlip <= 5) after.su = !after.su;
    return { editor, before, after };
  });

const RUNS = { numRuns: 400 };

describe('no escalation: role changes', () => {
  it('accepts a change exactly when the reference does (every changed triple held, or a superuser editor)', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(change, ({ editor, before, after }) => {
        const verdict = checkRoleChange(editor, before, after);
        expect(verdict.ok).toBe(referenceAccepts(editor, before, after));
        if (verdict.ok) accepted++;
        else refused++;
      }),
      RUNS,
    );
    // Both outcomes must be exercised, or the property says little.
    expect(accepted).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(40);
  });

  it('treats creating a role as a change from nothing and deleting one as a change to nothing', () => {
    fc.assert(
      fc.property(record(10), record(10), (editor, role) => {
        const none: PermissionRecord = { su: false };
        expect(checkRoleChange(editor, null, role).ok).toBe(referenceAccepts(editor, none, role));
        expect(checkRoleChange(editor, role, null).ok).toBe(referenceAccepts(editor, role, none));
      }),
      RUNS,
    );
  });

  it('names exactly the changed triples the editor does not hold', () => {
    fc.assert(
      fc.property(change, ({ editor, before, after }) => {
        fc.pre(!editor.su && !before.su && !after.su);
        const verdict = checkRoleChange(editor, before, after);
        const expected = changedTriples(before, after).filter(
          (t) =>
            !referenceHolds(
              editor,
              t.feature,
              ({ view: 'v', add: 'a', edit: 'e', delete: 'd' } as const)[t.level],
              t.locationId,
            ),
        );
        if (verdict.ok) expect(expected).toEqual([]);
        else expect(verdict).toEqual({ ok: false, reason: 'notHeld', triples: expected });
      }),
      RUNS,
    );
  });

  it('lists as changed exactly the triples whose holding differs (reference enumeration)', () => {
    fc.assert(
      fc.property(record(0), record(0), (before, after) => {
        const expected: string[] = [];
        for (const f of FEATURE_CODES)
          for (const level of LEVELS)
            for (const x of LOCATIONS)
              if (referenceHolds(before, f, level, x) !== referenceHolds(after, f, level, x))
                expected.push(`${f}/${LEVEL_NAME[level]}/${x}`);
        const actual = changedTriples(before, after).map((t) => `${t.feature}/${t.level}/${t.locationId}`);
        expect(actual.sort()).toEqual(expected.sort());
      }),
      RUNS,
    );
  });

  it('offers a matrix control exactly when the reference holds that triple', () => {
    fc.assert(
      fc.property(
        record(10),
        fc.constantFrom(...FEATURE_CODES),
        fc.constantFrom(...LEVELS),
        fc.constantFrom(...LOCATIONS),
        (editor, f, level, x) => {
          expect(mayGrant(editor, f, LEVEL_NAME[level], x)).toBe(referenceHolds(editor, f, level, x));
        },
      ),
      RUNS,
    );
  });

  it('refuses a non-superuser any change to a superuser role, even a rename', () => {
    const admin: PermissionRecord = { su: false, pc: { v: [], a: [], e: [], d: LOCATIONS } };
    const su: PermissionRecord = { su: true };
    expect(checkRoleChange(admin, su, su)).toEqual({ ok: false, reason: 'superuserOnly' });
    expect(checkRoleChange(admin, null, su)).toEqual({ ok: false, reason: 'superuserOnly' });
    expect(checkRoleChange(admin, su, null)).toEqual({ ok: false, reason: 'superuserOnly' });
    expect(checkRoleChange({ su: true }, su, { su: false }).ok).toBe(true);
  });

  it('needs edit held at a location to add edit there over view (higher implies lower)', () => {
    const editor: PermissionRecord = { su: false, pc: { v: [1, 2], a: [1], e: [], d: [] } };
    const before: PermissionRecord = { su: false, pc: { v: [1], a: [], e: [], d: [] } };
    expect(checkRoleChange(editor, before, { su: false, pc: { v: [1], a: [1], e: [], d: [] } }).ok).toBe(true);
    expect(checkRoleChange(editor, before, { su: false, pc: { v: [], a: [], e: [1], d: [] } })).toEqual({
      ok: false,
      reason: 'notHeld',
      // (add, 1) changes too, but the editor holds it.
      triples: [{ feature: 'pc', level: 'edit', locationId: 1 }],
    });
    // Writing the same grant differently (edit listed with view, or edit alone) changes nothing.
    expect(
      checkRoleChange(
        { su: false },
        { su: false, pc: { v: [1], a: [], e: [1], d: [] } },
        { su: false, pc: { v: [], a: [], e: [1], d: [] } },
      ),
    ).toEqual({ ok: true });
  });
});

describe('no escalation: assigning roles to users, disabling and enabling', () => {
  it('accepts exactly when the reference does, and never for the editor themselves', () => {
    fc.assert(
      fc.property(
        change,
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        ({ editor, before, after }, editorId, targetId) => {
          const verdict = checkUserChange({ userId: editorId, record: editor }, targetId, before, after);
          if (editorId === targetId) expect(verdict).toEqual({ ok: false, reason: 'self' });
          else expect(verdict.ok).toBe(referenceAccepts(editor, before, after));
        },
      ),
      RUNS,
    );
  });

  it('refuses even a superuser changing their own role or account', () => {
    expect(checkUserChange({ userId: 7, record: { su: true } }, 7, { su: true }, null)).toEqual({
      ok: false,
      reason: 'self',
    });
  });

  it('says a refusal in words', () => {
    expect(
      describeRefusal(
        { ok: false, reason: 'notHeld', triples: [{ feature: 'pc', level: 'add', locationId: 3 }] },
        'role',
        () => 'Promo codes',
        () => 'Pike Place Market Garage',
      ),
    ).toBe(
      'You may only grant or take away permissions you hold yourself. Not yours: Promo codes: add at Pike Place Market Garage.',
    );
    expect(describeRefusal({ ok: false, reason: 'self' }, 'user')).toMatch(/your own/);
  });
});

/*
 * Grants at all locations, now and later (src/permissions/all-locations.ts). The reference knows nothing of how they
 * are checked: a role holds (f, level, x) at a location of today when it lists x or holds f at that level (or above)
 * at all locations, and at a location added LATER only through the latter. A change is the editor's to make exactly
 * when every (f, level, x) whose holding differs, over today's locations and LATER, is held by the editor: whoever
 * could give "at all locations" without holding it would reach locations they could not otherwise reach.
 */
const LATER = 99;
interface Holder {
  record: PermissionRecord;
  all: AllLocations;
}
const atLeast = (held: AccessLevel | undefined, level: LevelKey) =>
  held !== undefined && ACCESS_LEVELS.indexOf(held) >= ACCESS_LEVELS.indexOf(LEVEL_NAME[level]);
function referenceHoldsWide(h: Holder, f: FeatureCode, level: LevelKey, x: number): boolean {
  if (h.record.su) return true;
  return atLeast(h.all[f], level) || (x !== LATER && referenceHolds(h.record, f, level, x));
}
function referenceAcceptsWide(editor: Holder, before: Holder, after: Holder): boolean {
  if (editor.record.su) return true;
  if (before.record.su || after.record.su) return false;
  for (const f of FEATURE_CODES)
    for (const level of LEVELS)
      for (const x of [...LOCATIONS, LATER])
        if (referenceHoldsWide(before, f, level, x) !== referenceHoldsWide(after, f, level, x)) {
          if (!referenceHoldsWide(editor, f, level, x)) return false;
        }
  return true;
}
/** As the server checks: each record as served (expanded to today's locations), then `holdings`. */
const checked = (h: Holder) => holdings(h.record, h.all, LOCATIONS);

const allLocations: fc.Arbitrary<AllLocations> = fc
  .record(Object.fromEntries(FEW.map((code) => [code, fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: undefined })])))
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as AllLocations);
/** Often an editor listing every location of today one by one: the case that must not be enough. */
const everyListed: fc.Arbitrary<PermissionRecord> = fc
  .subarray([...FEW], { minLength: 1 })
  .map((features) => ({ su: false, ...Object.fromEntries(features.map((f) => [f, { v: [], a: [], e: [], d: LOCATIONS }])) }));
const holder = (suWeight: number): fc.Arbitrary<Holder> =>
  fc.record({ record: fc.oneof(record(suWeight), everyListed), all: fc.oneof(allLocations, fc.constant({})) });

const wideChange = fc
  .tuple(holder(10), holder(5), fc.option(allLocations, { nil: undefined }), change)
  .map(([editor, before, all, { after: shuffled }]) => ({
    editor,
    before,
    // Either another set of all-locations grants, or the same with the lists changed (or both).
    after: { record: { ...shuffled, su: before.record.su }, all: all ?? before.all },
  }));

describe('no escalation: grants at all locations, now and later', () => {
  it('accepts a role change exactly when the reference does, locations added later included', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(wideChange, ({ editor, before, after }) => {
        const ok = checkRoleChange(checked(editor), checked(before), checked(after)).ok;
        expect(ok).toBe(referenceAcceptsWide(editor, before, after));
        if (ok) accepted++;
        else refused++;
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });

  it('accepts giving a user a role, or taking it, exactly when the reference does', () => {
    fc.assert(
      fc.property(holder(10), holder(10), fc.boolean(), (editor, role, giving) => {
        const none: Holder = { record: { su: false }, all: {} };
        const [from, to] = giving ? [none, role] : [role, none];
        const verdict = checkUserChange({ userId: 1, record: checked(editor) }, 2, checked(from), checked(to));
        expect(verdict.ok).toBe(referenceAcceptsWide(editor, from, to));
        if (giving) {
          expect(mayGiveRole({ record: checked(editor), allLocations: editor.all }, { permissions: checked(role), all_locations: role.all })).toBe(
            referenceAcceptsWide(editor, none, role),
          );
        }
      }),
      RUNS,
    );
  });

  it('refuses someone who holds every location of today, one by one, and names the grant in words', () => {
    const listed: Holder = { record: { su: false, pc: { v: [], a: [], e: [], d: LOCATIONS } }, all: {} };
    const wide: Holder = { record: { su: false }, all: { pc: 'view' } };
    const verdict = checkRoleChange(checked(listed), null, checked(wide));
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(describeRefusal(verdict, 'role')).toBe(
      'You may only grant or take away permissions you hold yourself. Not yours: Promo codes: view at all locations, now and later.',
    );
    // Taking it away is refused alike; a holder at a higher level may do both.
    expect(checkRoleChange(checked(listed), checked(wide), null).ok).toBe(false);
    const holderOfEdit = checked({ record: { su: false }, all: { pc: 'edit' } });
    expect(checkRoleChange(holderOfEdit, null, checked(wide)).ok).toBe(true);
    expect(checkRoleChange(holderOfEdit, checked(wide), null).ok).toBe(true);
  });
});
