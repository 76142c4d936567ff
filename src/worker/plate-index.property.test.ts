import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SEARCH_CATEGORIES } from './enforcement-worker-api';
import { PlateIndex, type IndexSource, type PlateIndexEntry, type PlateMatchQuery } from './plate-index';
import { fitsCell } from './plate-segment';
import { referenceFold, referenceMatch } from '../../test/fixtures/plate-reference';

const NOW = 1_750_000_000;
const SOURCES: IndexSource[] = ['transactions', 'spothero', 'parkwhiz', 'monthly_parkers'];

// Mostly plate characters in both cases, many of them look-alikes (O/0/Q/D, I/1/L, S/5, B/8, Z/2, G/6); a few that
// upper-case oddly (ß → SS, ı → I, ÿ → U+0178, ł → U+0141) or that a plate cell cannot hold (NUL, code units
// ≥ 0xFF), and spaces, which survive trim inside a query.
const LOOK_ALIKE_GROUPS = ['O0QD', 'I1L', 'S5', 'B8', 'Z2', 'G6'];
const plateChar = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...'ABCabc123'.split('')) },
  { weight: 8, arbitrary: fc.constantFrom(...'O0QDoqdI1LilS5sB8bZ2zG6g'.split('')) },
  { weight: 4, arbitrary: fc.constantFrom(...'XYZxyz7890-'.split('')) },
  { weight: 1, arbitrary: fc.constantFrom('ß', 'ı', 'é', 'ÿ', 'ł', ' ', '\n', '\u0000') },
);

/** Replaces each look-alike character with probability 1/2 by a random member of its group (a misread plate). */
const misread = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.nat(), { minLength: text.length, maxLength: text.length }).map((rolls) =>
    [...text]
      .map((char, i) => {
        const group = LOOK_ALIKE_GROUPS.find((g) => g.includes(char.toUpperCase()));
        const roll = rolls[i]!;
        return group === undefined || roll % 2 === 0 ? char : group.charAt((roll >>> 1) % group.length);
      })
      .join(''),
  );
// Up to 8 characters fit a cell; longer ones go to the overflow.
const plate = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: plateChar, minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: plateChar, minLength: 9, maxLength: 16 }) },
);

const entry = fc.record({
  source: fc.constantFrom(...SOURCES),
  key: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 2 ** 40 })),
  plate,
  locationId: fc.integer({ min: 1, max: 4 }),
  expiresAt: fc.oneof(fc.integer({ min: NOW - 5, max: NOW + 5 }), fc.integer({ min: 0, max: NOW * 2 })),
});

type Operation =
  | { kind: 'upsert'; entries: PlateIndexEntry[] }
  | { kind: 'remove'; source: IndexSource; keys: number[] }
  | { kind: 'purge'; before: number }
  | { kind: 'clear' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 12, arbitrary: fc.array(entry, { maxLength: 40 }).map((entries): Operation => ({ kind: 'upsert', entries })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ source: fc.constantFrom(...SOURCES), keys: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 15 }) })
      .map((remove): Operation => ({ kind: 'remove', ...remove })),
  },
  { weight: 2, arbitrary: fc.integer({ min: NOW - 6, max: NOW + 6 }).map((before): Operation => ({ kind: 'purge', before })) },
  { weight: 1, arbitrary: fc.constant<Operation>({ kind: 'clear' }) },
);

const modelKey = (source: IndexSource, key: number): string => `${source}:${key}`;

/** Applies the operations to an index and to a plain map; returns both and the purge counts each reported. */
function apply(operations: readonly Operation[]) {
  const index = new PlateIndex();
  const model = new Map<string, PlateIndexEntry>();
  const purged: Array<[number, number]> = [];
  for (const op of operations) {
    switch (op.kind) {
      case 'upsert':
        index.upsert(op.entries);
        for (const e of op.entries) {
          model.delete(modelKey(e.source, e.key));
          model.set(modelKey(e.source, e.key), e);
        }
        break;
      case 'remove':
        index.remove(op.source, op.keys);
        for (const key of op.keys) model.delete(modelKey(op.source, key));
        break;
      case 'purge': {
        let expected = 0;
        for (const [k, e] of model) {
          if (e.source !== 'monthly_parkers' && e.expiresAt < op.before) {
            model.delete(k);
            expected++;
          }
        }
        purged.push([index.removeExpiredBefore(op.before), expected]);
        break;
      }
      case 'clear':
        index.clear();
        model.clear();
        break;
    }
  }
  return { index, entries: [...model.values()], purged };
}

const pages = fc.option(
  fc.record(
    {
      valid: fc.integer({ min: 0, max: 6 }),
      expired: fc.integer({ min: 0, max: 6 }),
      spothero: fc.integer({ min: 0, max: 6 }),
      parkwhiz: fc.integer({ min: 0, max: 6 }),
      monthly_parkers: fc.integer({ min: 0, max: 6 }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

/**
 * Queries: substrings of plates the run holds (re-cased, padded), the same with look-alikes swapped in, and arbitrary
 * strings that mostly miss; similar matching on, off or left out.
 */
function queries(operations: readonly Operation[]): fc.Arbitrary<PlateMatchQuery[]> {
  const plates = operations.flatMap((op) => (op.kind === 'upsert' ? op.entries.map((e) => e.plate) : []));
  const fromPlate =
    plates.length === 0
      ? fc.constant('A')
      : fc
          .tuple(fc.constantFrom(...plates), fc.nat(), fc.integer({ min: 1, max: 7 }), fc.boolean())
          .map(([p, start, length, flipCase]) => {
            const cut = p.slice(start % p.length, (start % p.length) + length);
            return flipCase ? cut.toLowerCase() : cut.toUpperCase();
          });
  const text = fc.oneof(
    { weight: 6, arbitrary: fromPlate },
    { weight: 4, arbitrary: fromPlate.chain(misread) },
    { weight: 3, arbitrary: fc.string({ unit: plateChar, minLength: 1, maxLength: 7 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', ' a ', 'QQQQQQQ', 'SS', 'ß', 'I', 'ÿ', 'Ł', '\u0000', 'A\u0000', 'AB12ab12a') },
  );
  const query = fc.record(
    {
      text: fc.tuple(text, fc.constantFrom('', ' ', '  ')).map(([t, pad]) => pad + t + pad),
      locationId: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      nowSeconds: fc.integer({ min: NOW - 6, max: NOW + 6 }),
      pages,
      pageSize: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      similar: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: ['text', 'nowSeconds'] },
  );
  return fc.array(query, { minLength: 1, maxLength: 12 });
}

const scenario = fc
  .array(operation, { minLength: 1, maxLength: 12 })
  .chain((operations) => fc.tuple(fc.constant(operations), queries(operations)));

describe('PlateIndex against the reference filter', () => {
  it('matches the reference for every category: total, exact total, clamped page, keys and where similar ones start', () => {
    fc.assert(
      fc.property(scenario, ([operations, qs]) => {
        const { index, entries, purged } = apply(operations);
        for (const [reported, expected] of purged) expect(reported).toBe(expected);
        expect(index.size).toBe(entries.length);
        for (const query of qs) expect(index.match(query)).toEqual(referenceMatch(entries, query));
      }),
      { numRuns: 400 },
    );
  });

  it('gives identical results after a structured-clone snapshot round trip, and later writes do not leak into it', () => {
    fc.assert(
      fc.property(scenario, fc.array(entry, { minLength: 1, maxLength: 10 }), ([operations, qs], later) => {
        const { index, entries } = apply(operations);
        const restored = PlateIndex.fromSnapshot(structuredClone(index.toSnapshot()));
        const sharing = PlateIndex.fromSnapshot(index.toSnapshot());
        const bytes = index.byteLength;
        index.upsert(later);
        index.removeExpiredBefore(NOW);
        expect(restored.size).toBe(entries.length);
        expect(restored.byteLength).toBe(bytes);
        for (const query of qs) {
          const expected = referenceMatch(entries, query);
          expect(restored.match(query)).toEqual(expected);
          expect(sharing.match(query)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reports a byteLength covering its columns and bitmaps, within the per-entry budget', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 10 }), (operations) => {
        const { index, entries } = apply(operations);
        index.match({ text: 'A', nowSeconds: NOW }); // builds the presence bitmaps
        let floor = 0;
        for (const source of SOURCES) {
          const held = entries.filter((e) => e.source === source);
          const overflow = held.map((e) => e.plate.toUpperCase()).filter((p) => !fitsCell(p));
          // Per entry: an 8-byte cell, a 4-byte key (8 once any key needed it), location 4, expiry 4; overflow
          // plates: slot 4 + offset 4 + 2 per code unit, plus one offset; 75 bitmap rows of ceil(n / 32) words
          // (37 character classes, 6 look-alike groups, 32 pair buckets).
          floor += held.length * 20 + overflow.length * 8 + 4 + 2 * overflow.reduce((sum, p) => sum + p.length, 0);
          floor += 75 * 4 * Math.ceil(held.length / 32);
        }
        expect(index.byteLength).toBeGreaterThanOrEqual(floor);
        expect(index.byteLength).toBeLessThanOrEqual(floor + 4 * entries.length);
      }),
      { numRuns: 200 },
    );
  });

  it('matches the reference at a few thousand entries (many bitmap words, deep pages)', () => {
    const bigEntry = entry.map((e) => ({ ...e, key: e.key % 5000 }));
    fc.assert(
      fc.property(
        fc.array(bigEntry, { minLength: 2000, maxLength: 4000 }),
        fc.array(fc.tuple(fc.string({ unit: plateChar, minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 40 }), fc.boolean()), {
          minLength: 10,
          maxLength: 20,
        }),
        (entries, probes) => {
          const index = new PlateIndex();
          for (let i = 0; i < entries.length; i += 500) index.upsert(entries.slice(i, i + 500));
          const live = new Map(entries.map((e) => [modelKey(e.source, e.key), e]));
          for (const [text, page, similar] of probes) {
            const pages = { valid: page, expired: page, spothero: page, parkwhiz: page, monthly_parkers: page };
            const query = { text, nowSeconds: NOW, pages, similar };
            expect(index.match(query)).toEqual(referenceMatch([...live.values()], query));
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('covers every category in its generated data', () => {
    // Guards the generators: a run that never produced a category would make the properties above vacuous for it.
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenario, ([operations, qs]) => {
        const { entries } = apply(operations);
        for (const query of qs) {
          const result = referenceMatch(entries, query);
          for (const category of SEARCH_CATEGORIES) if (result[category].total > (query.pageSize ?? 10)) seen.add(category);
        }
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual([...SEARCH_CATEGORIES].sort());
  });

  it('produces similar-only matches and pages that straddle exact and similar ones in its generated data', () => {
    // Guards the look-alike generators likewise: similar results must occur in every shape the index handles.
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenario, ([operations, qs]) => {
        const { entries } = apply(operations);
        for (const query of qs) {
          if (query.similar !== true) continue;
          const oneCharacter = query.text.trim().length === 1;
          for (const category of SEARCH_CATEGORIES) {
            const { total, exactTotal, keys, similarFrom } = referenceMatch(entries, query)[category];
            if (total > exactTotal) seen.add(oneCharacter ? 'similar-only, one character' : 'similar-only, longer');
            if (exactTotal > 0 && total > exactTotal) seen.add('exact and similar');
            if (similarFrom > 0 && similarFrom < keys.length) seen.add('page straddles');
            if (exactTotal === 0 && total > 0) seen.add('no exact match');
            if (total > exactTotal && query.locationId !== undefined) seen.add('with a location');
          }
        }
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(
      ['exact and similar', 'no exact match', 'page straddles', 'similar-only, longer', 'similar-only, one character', 'with a location'].sort(),
    );
  });

  it('folds as the issue says: each look-alike group to one character, nothing else', () => {
    expect(referenceFold('O0QD I1L S5 B8 Z2 G6 AXY-')).toBe('OOOO III SS BB ZZ GG AXY-');
  });
});
