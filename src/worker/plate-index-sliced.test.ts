import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SEARCH_CATEGORIES } from './enforcement-worker-api';
import { PlateIndex, type IndexSource, type PlateIndexEntry, type PlateMatchQuery } from './plate-index';
import { referenceMatch } from '../../test/fixtures/plate-reference';

const NOW = 1_750_000_000;
const SOURCES: IndexSource[] = ['transactions', 'spothero', 'parkwhiz', 'monthly_parkers'];

const tx = (key: number, plate: string, expiresAt = NOW + 60): PlateIndexEntry => ({ source: 'transactions', key, plate, locationId: 1, expiresAt });

/** `count` transactions with plates "P<key>", keys from `from`. */
function transactions(from: number, count: number, expiresAt = NOW + 60): PlateIndexEntry[] {
  return Array.from({ length: count }, (_, i) => tx(from + i, `P${from + i}`, expiresAt));
}

const totals = (index: PlateIndex, text: string) => {
  const matches = index.match({ text, nowSeconds: NOW });
  return SEARCH_CATEGORIES.reduce((sum, category) => sum + matches[category].total, 0);
};

describe('PlateIndex.upsertInSlices (a sync page indexed while searches run)', () => {
  it('pauses between slices; a search then sees the index as before the page, and the page once it resolves', async () => {
    const index = new PlateIndex();
    index.upsert(transactions(1, 50_000));
    const seenDuring: number[] = [];
    const page = [...transactions(100_001, 2000), tx(7, 'CHANGED7')];
    const done = index.upsertInSlices(page, async () => {
      seenDuring.push(totals(index, 'P10000') + totals(index, 'CHANGED7'));
    }, 0);
    await done;
    // Every slice boundary paused (sliceMs 0): the 50,000-entry rebuild and its bitmaps take several slices.
    expect(seenDuring.length).toBeGreaterThan(5);
    // "P10000" is held by key 10000 and (after the page) 100000–100009 are not in it, 100001–… are "P1000xx"; the
    // page's entries are invisible until the upsert takes effect.
    const before = new PlateIndex();
    before.upsert(transactions(1, 50_000));
    const expectedBefore = totals(before, 'P10000') + totals(before, 'CHANGED7');
    expect(new Set(seenDuring)).toEqual(new Set([expectedBefore]));
    before.upsert(page);
    expect(totals(index, 'P10000') + totals(index, 'CHANGED7')).toBe(totals(before, 'P10000') + totals(before, 'CHANGED7'));
    expect(index.plateOf('transactions', 7)).toBe('CHANGED7');
    expect(index.size).toBe(52_000);
  });

  it('leaves the new segment with its presence bitmaps: the next search builds nothing', async () => {
    const index = new PlateIndex();
    await index.upsertInSlices(transactions(1, 5000), () => Promise.resolve());
    const bytes = index.byteLength;
    index.match({ text: 'P12', nowSeconds: NOW });
    expect(index.byteLength).toBe(bytes);

    // The plain upsert leaves them to the first query, which adds them.
    const plain = new PlateIndex();
    plain.upsert(transactions(1, 5000));
    const plainBytes = plain.byteLength;
    plain.match({ text: 'P12', nowSeconds: NOW });
    expect(plain.byteLength).toBeGreaterThan(plainBytes);
    expect(plain.byteLength).toBe(bytes);
  });

  it('applies calls in call order, the later one winning for a key, when they are not awaited one by one', async () => {
    const index = new PlateIndex();
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
    const first = index.upsertInSlices([tx(1, 'FIRST'), ...transactions(10, 20_000)], pause, 0);
    const second = index.upsertInSlices([tx(1, 'SECOND')], pause, 0);
    await Promise.all([first, second]);
    expect(index.plateOf('transactions', 1)).toBe('SECOND');
    expect(index.size).toBe(20_001);
  });

  it('takes effect when it resolves: a removal made meanwhile does not lose the page', async () => {
    const index = new PlateIndex();
    index.upsert(transactions(1, 20_000));
    let removed = false;
    await index.upsertInSlices(transactions(30_000, 100), async () => {
      if (removed) return;
      removed = true;
      index.remove('transactions', [5, 30_000]);
    }, 0);
    expect(removed).toBe(true);
    expect(index.plateOf('transactions', 5)).toBeUndefined();
    // Key 30000 was removed before the page took effect, so the page's entry for it stands.
    expect(index.plateOf('transactions', 30_000)).toBe('P30000');
    expect(index.size).toBe(20_000 - 1 + 100);
  });

  it('rejects a bad entry before changing anything, and the next call still runs', async () => {
    const index = new PlateIndex();
    index.upsert([tx(1, 'KEEP')]);
    await expect(index.upsertInSlices([tx(2, 'NEW'), tx(Number.NaN, 'BAD')], () => Promise.resolve())).rejects.toThrow(RangeError);
    expect(index.size).toBe(1);
    await index.upsertInSlices([tx(3, 'LATER')], () => Promise.resolve());
    expect(index.plateOf('transactions', 3)).toBe('LATER');
    expect(index.plateOf('transactions', 2)).toBeUndefined();
  });

  it('ends as the same writes made with upsert would, whatever the other writes and searches between its slices', async () => {
    const entry = fc.record({
      source: fc.constantFrom(...SOURCES),
      key: fc.integer({ min: 1, max: 3000 }),
      plate: fc.string({ unit: fc.constantFrom(...'AB01O8 '.split('')), minLength: 1, maxLength: 6 }),
      locationId: fc.integer({ min: 1, max: 3 }),
      expiresAt: fc.integer({ min: NOW - 5, max: NOW + 5 }),
    });
    // Each step: a write, either made at once (upsert or remove) or sliced, during which the next writes run.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('sliced' as const), entries: fc.array(entry, { minLength: 1, maxLength: 400 }) }),
      fc.record({ kind: fc.constant('upsert' as const), entries: fc.array(entry, { maxLength: 20 }) }),
      fc.record({ kind: fc.constant('remove' as const), source: fc.constantFrom(...SOURCES), keys: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 20 }) }),
    );
    const query = fc.record({
      text: fc.string({ unit: fc.constantFrom(...'AB01O8'.split('')), minLength: 1, maxLength: 3 }),
      nowSeconds: fc.constant(NOW),
      similar: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 4 }), async (steps, queries) => {
        const index = new PlateIndex();
        const model = new Map<string, PlateIndexEntry>();
        const put = (entries: readonly PlateIndexEntry[]) => {
          for (const e of entries) model.set(`${e.source}:${e.key}`, e);
        };
        // The model as it stands at each search: a sliced upsert counts from when it resolves.
        const check = (searched: readonly PlateMatchQuery[]) => {
          for (const q of searched) expect(index.match(q)).toEqual(referenceMatch([...model.values()], q));
        };
        let pending: Promise<void> | null = null;
        for (const s of steps) {
          if (s.kind === 'sliced') {
            await pending;
            pending = index.upsertInSlices(s.entries, () => new Promise<void>((resolve) => setTimeout(resolve, 0)), 0).then(() => put(s.entries));
          } else if (s.kind === 'upsert') {
            index.upsert(s.entries);
            put(s.entries);
          } else {
            index.remove(s.source, s.keys);
            for (const key of s.keys) model.delete(`${s.source}:${key}`);
          }
          check(queries);
          // A timer's turn: the sliced upsert in progress (sliceMs 0, a timer per pause) runs a slice or so.
          await new Promise((resolve) => setTimeout(resolve, 0));
          check(queries);
        }
        await pending;
        check(queries);
        expect(index.size).toBe(model.size);
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
