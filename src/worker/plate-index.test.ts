import { describe, expect, it } from 'vitest';
import { PlateIndex, type CategoryMatches, type PlateIndexEntry, type PlateIndexSnapshot } from './plate-index';
import { presenceLength } from './plate-presence';

const NOW = 1_750_000_000;

/** An all-exact category result, as every result is without `similar`. */
const exact = (total: number, page: number, keys: number[]): CategoryMatches => ({ total, exactTotal: total, page, keys, similarFrom: keys.length });

const tx = (key: number, plate: string, expiresAt: number, locationId = 1): PlateIndexEntry => ({
  source: 'transactions',
  key,
  plate,
  locationId,
  expiresAt,
});

describe('PlateIndex', () => {
  it('matches a trimmed, case-insensitive substring and splits transactions at now (expiry equal to now is expired)', () => {
    const index = new PlateIndex();
    index.upsert([
      tx(3, '7abc123', NOW + 60),
      tx(1, '7ABC124', NOW),
      tx(2, 'XYZ999', NOW - 60),
      { source: 'spothero', key: 9, plate: 'abc1', locationId: 2, expiresAt: NOW - 1 },
      { source: 'monthly_parkers', key: 4, plate: 'Abc', locationId: 1, expiresAt: 0 },
    ]);
    const matches = index.match({ text: '  bC1 ', nowSeconds: NOW });
    expect(matches.valid).toEqual(exact(1, 0, [3]));
    expect(matches.expired).toEqual(exact(1, 0, [1]));
    expect(matches.spothero).toEqual(exact(1, 0, [9]));
    expect(matches.parkwhiz).toEqual(exact(0, 0, []));
    expect(matches.monthly_parkers).toEqual(exact(0, 0, []));
    expect(index.match({ text: 'abc', nowSeconds: NOW, locationId: 2 }).spothero.keys).toEqual([9]);
    expect(index.match({ text: 'abc', nowSeconds: NOW, locationId: 2 }).monthly_parkers.total).toBe(0);
  });

  it('counts the entries of a source, and of transactions those expiring after now, as match splits them', () => {
    const index = new PlateIndex();
    index.upsert([tx(1, 'A1', NOW + 60), tx(2, 'A2', NOW), tx(3, 'A3', NOW - 60), tx(4, 'A4', NOW + 1)]);
    index.upsert([{ source: 'parkwhiz', key: 1, plate: 'P1', locationId: 1, expiresAt: NOW - 5 }]);
    // An update of key 4 (now expired) replaces its entry: still four transactions.
    index.upsert([tx(4, 'A4', NOW - 1)]);
    const everyText = (text: string) => index.match({ text, nowSeconds: NOW });
    expect(index.count('transactions')).toBe(4);
    expect(index.count('transactions', NOW)).toBe(everyText('A').valid.total);
    expect(index.count('transactions', NOW)).toBe(1);
    expect(index.count('transactions') - index.count('transactions', NOW)).toBe(everyText('A').expired.total);
    expect(index.count('parkwhiz')).toBe(1);
    expect(index.count('spothero')).toBe(0);
    index.removeExpiredBefore(NOW);
    expect([index.count('transactions'), index.count('parkwhiz')]).toEqual([2, 0]);
  });

  it('gives the plate held for a key, upper-cased, from its cell or kept whole when it does not fit one', () => {
    const index = new PlateIndex();
    index.upsert([tx(1, 'abc12', NOW), tx(2, 'LONGPLATE123', NOW), tx(3, 'ÉTÉ1', NOW), tx(4, 'ZZZZZZZZ', NOW)]);
    index.upsert([{ source: 'spothero', key: 2, plate: 'sp2', locationId: 1, expiresAt: NOW }]);
    expect([1, 2, 3, 4].map((key) => index.plateOf('transactions', key))).toEqual(['ABC12', 'LONGPLATE123', 'ÉTÉ1', 'ZZZZZZZZ']);
    expect(index.plateOf('spothero', 2)).toBe('SP2');
    expect(index.plateOf('transactions', 5)).toBeUndefined();
    expect(index.plateOf('parkwhiz', 1)).toBeUndefined();
  });

  it('matches nothing for an empty or blank query', () => {
    const index = new PlateIndex();
    index.upsert([tx(1, 'ABC', NOW + 1)]);
    for (const text of ['', '   ']) {
      const matches = index.match({ text, nowSeconds: NOW });
      expect(Object.values(matches).every((category) => category.total === 0 && category.page === 0)).toBe(true);
    }
  });

  it('orders rows by ascending key whatever the write order, and clamps a page past the end to the last page', () => {
    const index = new PlateIndex();
    const keys = [50, 7, 23, 1, 99, 42, 8, 15, 64, 3, 31, 77];
    for (const key of keys) index.upsert([tx(key, `AB${key}`, NOW + 100)]);
    const sorted = [...keys].sort((a, b) => a - b);
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5 }).valid).toEqual(exact(12, 0, sorted.slice(0, 5)));
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5, pages: { valid: 1 } }).valid.keys).toEqual(sorted.slice(5, 10));
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5, pages: { valid: 9 } }).valid).toEqual(exact(12, 2, sorted.slice(10)));
    // SEARCH_PAGE_SIZE (10) by default.
    expect(index.match({ text: 'ab', nowSeconds: NOW, pages: { valid: 1 } }).valid.keys).toEqual(sorted.slice(10));
  });

  it('ranks for the officer: valid soonest expiry first, expired most recent first, bookings active first', () => {
    const index = new PlateIndex();
    index.upsert([
      tx(1, 'AB1', NOW + 6 * 3600),
      tx(2, 'AB2', NOW + 42 * 60),
      tx(3, 'AB3', NOW + 5 * 3600),
      tx(4, 'AB4', NOW - 30 * 86400),
      tx(5, 'AB5', NOW - 60),
      tx(6, 'AB6', NOW - 3600),
      { source: 'spothero', key: 1, plate: 'AB1', locationId: 1, expiresAt: NOW - 20 * 86400 },
      { source: 'spothero', key: 2, plate: 'AB2', locationId: 1, expiresAt: NOW + 7200 },
      { source: 'spothero', key: 3, plate: 'AB3', locationId: 1, expiresAt: NOW - 60 },
      { source: 'spothero', key: 4, plate: 'AB4', locationId: 1, expiresAt: NOW + 600 },
    ]);
    const matches = index.match({ text: 'AB', nowSeconds: NOW });
    expect(matches.valid.keys).toEqual([2, 3, 1]);
    expect(matches.expired.keys).toEqual([5, 6, 4]);
    expect(matches.spothero.keys).toEqual([4, 2, 3, 1]);
    // Pages run over that order; a one-character query (answered from bitmaps for unordered sources) too.
    expect(index.match({ text: 'AB', nowSeconds: NOW, pageSize: 2, pages: { spothero: 1 } }).spothero.keys).toEqual([3, 1]);
    expect(index.match({ text: 'A', nowSeconds: NOW, pageSize: 2 }).spothero.keys).toEqual([4, 2]);
    // Similar-only matches rank the same way, after the exact ones.
    const similar = index.match({ text: 'A8', nowSeconds: NOW, similar: true });
    expect(similar.valid).toEqual({ total: 3, exactTotal: 0, page: 0, keys: [2, 3, 1], similarFrom: 0 });
  });

  it('replaces by (source, key), removes, and purges expired transactions and bookings but never monthly parkers', () => {
    const index = new PlateIndex();
    index.upsert([
      tx(1, 'OLD1', NOW + 10),
      { source: 'parkwhiz', key: 1, plate: 'PW1', locationId: 1, expiresAt: NOW - 100 },
      { source: 'monthly_parkers', key: 1, plate: 'MP1', locationId: 1, expiresAt: 0 },
    ]);
    index.upsert([tx(1, 'NEW1', NOW + 10), tx(1, 'NEWER1', NOW + 10)]);
    expect(index.size).toBe(3);
    expect(index.match({ text: 'old', nowSeconds: NOW }).valid.total).toBe(0);
    expect(index.match({ text: 'newer', nowSeconds: NOW }).valid.keys).toEqual([1]);

    expect(index.removeExpiredBefore(NOW)).toBe(1); // the ParkWhiz booking; expiresAt 0 of the monthly parker is "never"
    expect(index.match({ text: 'P', nowSeconds: NOW }).monthly_parkers.keys).toEqual([1]);
    index.remove('transactions', [1, 2]);
    expect(index.size).toBe(1);
    index.clear();
    expect(index.size).toBe(0);
  });

  it('keeps plates a cell cannot hold (long, NUL, beyond Latin-1) and matches them', () => {
    const index = new PlateIndex();
    index.upsert([
      tx(1, 'ABCDEFGHIJKL', NOW + 1),
      tx(2, 'łódź1', NOW + 1),
      tx(3, 'straße', NOW + 1), // upper-cases to STRASSE
      tx(4, 'A\u0000B', NOW + 1),
    ]);
    expect(index.match({ text: 'hijk', nowSeconds: NOW }).valid.keys).toEqual([1]);
    expect(index.match({ text: 'ŁÓ', nowSeconds: NOW }).valid.keys).toEqual([2]);
    expect(index.match({ text: 'ss', nowSeconds: NOW }).valid.keys).toEqual([3]);
    expect(index.match({ text: 'ß', nowSeconds: NOW }).valid.keys).toEqual([3]);
    expect(index.match({ text: '\u0000b', nowSeconds: NOW }).valid.keys).toEqual([4]);
  });

  it('rejects entries it cannot store and snapshots it cannot trust', () => {
    const index = new PlateIndex();
    expect(() => index.upsert([tx(Number.NaN, 'A', 1)])).toThrow(RangeError);
    expect(() => index.upsert([tx(1, 'A', -1)])).toThrow(RangeError);
    expect(() => index.upsert([tx(1, 'A', 1, 2 ** 32)])).toThrow(RangeError);
    expect(() => index.match({ text: 'A', nowSeconds: NOW, pageSize: 0 })).toThrow(RangeError);
    expect(index.match({ text: 'A', nowSeconds: NOW, locationId: -1 }).valid.total).toBe(0);

    index.upsert([tx(1, 'A', 1), tx(2, 'B', 1)]);
    const snapshot = index.toSnapshot();
    expect(() => PlateIndex.fromSnapshot({ ...snapshot, version: 99 })).toThrow(TypeError);
    // Version 1 (69 bitmap rows, pairs hashed unfolded) cannot answer similar queries: the store must rebuild.
    expect(() => PlateIndex.fromSnapshot({ ...snapshot, version: 1 })).toThrow(/version 1/);
    const oldPresence = { ...snapshot.transactions, presence: new Uint32Array(69 * 1) };
    expect(presenceLength(2)).not.toBe(oldPresence.presence.length);
    expect(() => PlateIndex.fromSnapshot({ ...snapshot, transactions: oldPresence })).toThrow(/presence/);
    const reversed = { ...snapshot.transactions, keys: Uint32Array.from([2, 1]) };
    expect(() => PlateIndex.fromSnapshot({ ...snapshot, transactions: reversed } as PlateIndexSnapshot)).toThrow(/ascending/);
  });

  it('takes snapshots that hold only numbers and typed arrays, and restores them without copying', () => {
    const index = new PlateIndex();
    index.upsert([tx(5, 'ABC123', NOW + 5), { source: 'spothero', key: 2 ** 40, plate: 'Q1', locationId: 3, expiresAt: NOW }]);
    const snapshot = index.toSnapshot();
    for (const segment of [snapshot.transactions, snapshot.spothero, snapshot.parkwhiz, snapshot.monthly_parkers]) {
      for (const column of Object.values(segment)) expect(ArrayBuffer.isView(column)).toBe(true);
    }
    const restored = PlateIndex.fromSnapshot(snapshot);
    expect(restored.toSnapshot().transactions.cells).toBe(snapshot.transactions.cells);
    expect(restored.match({ text: 'q', nowSeconds: NOW }).spothero.keys).toEqual([2 ** 40]);
  });

  describe('similar characters', () => {
    const similar = (text: string, extra: { locationId?: number; pageSize?: number; pages?: Record<string, number> } = {}) => ({
      text,
      nowSeconds: NOW,
      similar: true,
      ...extra,
    });

    it('matches look-alikes (O/0/Q/D, I/1/L, S/5, B/8, Z/2, G/6), exact matches first, and marks where similar ones start', () => {
      const index = new PlateIndex();
      index.upsert([
        tx(1, 'B0G5', NOW + 9),
        tx(2, '8OG5', NOW + 9),
        tx(3, 'BDGS', NOW + 9),
        tx(4, 'BQ6S', NOW + 9),
        tx(5, 'B0GX', NOW + 9), // differs in a character outside the groups' reach: no match
        tx(6, 'xxb0g5', NOW + 9),
        tx(7, 'A1L', NOW - 9),
        tx(8, 'ail', NOW - 9),
        tx(9, 'Z2', NOW - 9),
      ]);
      expect(index.match(similar('b0g5')).valid).toEqual({ total: 5, exactTotal: 2, page: 0, keys: [1, 6, 2, 3, 4], similarFrom: 2 });
      expect(index.match(similar('il')).expired).toEqual({ total: 2, exactTotal: 1, page: 0, keys: [8, 7], similarFrom: 1 });
      expect(index.match(similar('22')).expired).toEqual({ total: 1, exactTotal: 0, page: 0, keys: [9], similarFrom: 0 });
      // Off (the default): exactly today's exact search.
      expect(index.match({ text: 'b0g5', nowSeconds: NOW }).valid).toEqual(exact(2, 0, [1, 6]));
      expect(index.match({ text: 'b0g5', nowSeconds: NOW, similar: false }).valid).toEqual(exact(2, 0, [1, 6]));
    });

    it('pages over exact then similar matches, with the boundary inside a page, and clamps past the end', () => {
      const index = new PlateIndex();
      // Keys 1..7 hold "PS" plates, keys 8..14 "P5" plates (S and 5 look alike); written interleaved, newest first.
      for (let i = 7; i >= 1; i--) {
        const suffix = 'ACEFHJK'.charAt(i - 1);
        index.upsert([
          { source: 'parkwhiz', key: i + 7, plate: `P5${suffix}`, locationId: 1, expiresAt: 0 },
          { source: 'parkwhiz', key: i, plate: `PS${suffix}`, locationId: 1, expiresAt: 0 },
        ]);
      }
      const page = (n: number) => index.match(similar('ps', { pageSize: 3, pages: { parkwhiz: n } })).parkwhiz;
      expect(page(0)).toEqual({ total: 14, exactTotal: 7, page: 0, keys: [1, 2, 3], similarFrom: 3 });
      expect(page(2)).toEqual({ total: 14, exactTotal: 7, page: 2, keys: [7, 8, 9], similarFrom: 1 });
      expect(page(3)).toEqual({ total: 14, exactTotal: 7, page: 3, keys: [10, 11, 12], similarFrom: 0 });
      expect(page(40)).toEqual({ total: 14, exactTotal: 7, page: 4, keys: [13, 14], similarFrom: 0 });
      // One character: answered from the bitmaps alone (popcount path), with a location and split by expiry.
      const one = (n: number, extra = {}) => index.match(similar('5', { pageSize: 4, pages: { parkwhiz: n }, ...extra })).parkwhiz;
      expect(one(0)).toEqual({ total: 14, exactTotal: 7, page: 0, keys: [8, 9, 10, 11], similarFrom: 4 });
      expect(one(1)).toEqual({ total: 14, exactTotal: 7, page: 1, keys: [12, 13, 14, 1], similarFrom: 3 });
      expect(one(9, { locationId: 1 })).toEqual({ total: 14, exactTotal: 7, page: 3, keys: [6, 7], similarFrom: 0 });
      expect(one(0, { locationId: 2 })).toEqual({ total: 0, exactTotal: 0, page: 0, keys: [], similarFrom: 0 });
    });

    it('treats a query without look-alike characters as exact, and folds plates a cell cannot hold', () => {
      const index = new PlateIndex();
      index.upsert([
        tx(1, 'LONGPLATE0123', NOW + 1),
        tx(2, 'łódź-0', NOW + 1),
        tx(3, 'straße', NOW + 1), // STRASSE
        tx(4, 'AXY', NOW + 1),
      ]);
      expect(index.match(similar('axy')).valid).toEqual(exact(1, 0, [4]));
      expect(index.match(similar('pIateo1')).valid).toEqual({ total: 1, exactTotal: 0, page: 0, keys: [1], similarFrom: 0 });
      expect(index.match(similar('ŁÓDŹ-D')).valid).toEqual({ total: 1, exactTotal: 0, page: 0, keys: [2], similarFrom: 0 });
      expect(index.match(similar('5S')).valid).toEqual({ total: 1, exactTotal: 0, page: 0, keys: [3], similarFrom: 0 });
      expect(index.match(similar('ß')).valid).toEqual(exact(1, 0, [3]));
    });
  });
});
