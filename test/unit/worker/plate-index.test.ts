import { describe, expect, it } from 'vitest';
import { PlateIndex, type PlateIndexEntry, type PlateIndexSnapshot } from '../../../src/worker/plate-index';

const NOW = 1_750_000_000;

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
    expect(matches.valid).toEqual({ total: 1, page: 0, keys: [3] });
    expect(matches.expired).toEqual({ total: 1, page: 0, keys: [1] });
    expect(matches.spothero).toEqual({ total: 1, page: 0, keys: [9] });
    expect(matches.parkwhiz).toEqual({ total: 0, page: 0, keys: [] });
    expect(matches.monthly_parkers).toEqual({ total: 0, page: 0, keys: [] });
    expect(index.match({ text: 'abc', nowSeconds: NOW, locationId: 2 }).spothero.keys).toEqual([9]);
    expect(index.match({ text: 'abc', nowSeconds: NOW, locationId: 2 }).monthly_parkers.total).toBe(0);
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
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5 }).valid).toEqual({ total: 12, page: 0, keys: sorted.slice(0, 5) });
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5, pages: { valid: 1 } }).valid.keys).toEqual(sorted.slice(5, 10));
    expect(index.match({ text: 'ab', nowSeconds: NOW, pageSize: 5, pages: { valid: 9 } }).valid).toEqual({
      total: 12,
      page: 2,
      keys: sorted.slice(10),
    });
    // SEARCH_PAGE_SIZE (10) by default.
    expect(index.match({ text: 'ab', nowSeconds: NOW, pages: { valid: 1 } }).valid.keys).toEqual(sorted.slice(10));
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
});
