import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SYNC_TYPES } from '../contract/enforcement';
import { PackedRows } from './packed-rows';
import { StagedPages } from './store-staging';
import type { StagedPageRow } from './store';
import { generateEnforcementRecords } from '../../server/db/seed/enforcement-data';

/** What a row read back from IndexedDB's staged rows is: the row through JSON. */
const throughJson = <T>(rows: readonly T[]): T[] => rows.map((row) => JSON.parse(JSON.stringify(row)) as T);

describe('packed rows', () => {
  it('give back every record of each sync type exactly, in ~40–65 bytes a record', () => {
    const counts = { valid: 2000, expired: 2000, spothero: 2000, parkwhiz: 2000, monthly_parkers: 2000 };
    const byType = new Map<string, object[]>();
    for (const item of generateEnforcementRecords({ counts, locations: [1, 2, 3], now: 1_764_000_000_000 })) {
      const stored = { ...item.record, sync_time: 1_764_000_000_123, ...('id' in item.record ? { expiry_unix: 1_764_000_000 } : {}) };
      byType.set(item.type, [...(byType.get(item.type) ?? []), stored]);
    }
    for (const type of SYNC_TYPES) {
      const rows = byType.get(type)!;
      const packed = PackedRows.pack(rows);
      expect(packed, type).not.toBeNull();
      expect(packed!.rows()).toStrictEqual(throughJson(rows));
      expect(packed!.row(1234)).toStrictEqual(rows[1234]);
      // As JSON they take ~255–290 bytes a record.
      expect(packed!.bytes / rows.length, type).toBeLessThan(70);
    }
  });

  const isoBetween = (min: Date, max: Date) => fc.date({ min, max, noInvalidDate: true }).map((date) => date.toISOString());
  const isoText = isoBetween(new Date('1900-01-01T00:00:00Z'), new Date('2200-01-01T00:00:00Z'));
  // Years before 100, negative and beyond 9999 (toISOString writes ±YYYYYY).
  const anyIsoText = isoBetween(new Date(Date.UTC(-2, 0, 1)), new Date(Date.UTC(10_001, 0, 1)));
  const LOOKS_ISO = ['2024-02-30T00:00:00.000Z', '2023-02-29T10:00:00.000Z', '0099-01-01T00:00:00.000Z', '2024-13-01T00:00:00.000Z', '2024-00-10T00:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-01-01T10:60:00.000Z', '2024-01-01T10:00:60.000Z'];
  const nearIso = fc.oneof(
    anyIsoText,
    isoText.map((text) => text.replace('Z', '+00:00')),
    fc.constantFrom('2024-02-30T00:00:00.000Z', '2023-02-29T10:00:00.000Z', '2024-02-29T23:59:59.999Z', '0099-01-01T00:00:00.000Z', '2024-13-01T00:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-01-01T00:00:00.000z', '2024-01-01 00:00:00.000Z'),
  );
  const value = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: 0, max: 2 ** 32 + 5 }),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
    fc.integer({ min: 0, max: 1_000_000 }).map((cents) => cents / 100),
    fc.constantFrom(0.1 + 0.2, 1e21, 2 ** 53, 42_949_672.96, 42_949_672.95),
    nearIso,
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('Paid', 'Active', 'Expired'),
  );
  /** Rows of one shape; a column is drawn from a few values (dictionaries), one kind, or anything. */
  const page = fc.integer({ min: 1, max: 6 }).chain((fields) =>
    fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 257, max: 400 })).chain((length) => {
      const column = fc.oneof(
        fc.array(value, { minLength: 1, maxLength: 4 }).chain((choices) => fc.array(fc.constantFrom(...choices), { minLength: length, maxLength: length })),
        value.chain(() => fc.array(value, { minLength: length, maxLength: length })),
        fc.array(fc.oneof(isoText, fc.constant(null)), { minLength: length, maxLength: length }),
        fc.array(isoText, { minLength: length, maxLength: length }),
        fc.array(anyIsoText, { minLength: length, maxLength: length }),
        // Mostly ISO times, with one that only looks like one (no such day, hour or month, or a year Date.UTC reads
        // as 19xx): the column must fall back to texts.
        fc.tuple(fc.array(isoText, { minLength: length, maxLength: length }), fc.nat(), fc.constantFrom(...LOOKS_ISO)).map(([texts, at, odd]) =>
          texts.map((text, i) => (i === at % texts.length ? odd : text)),
        ),
        fc.array(isoText.map((text) => `${text.slice(0, 20)}000Z`), { minLength: length, maxLength: length }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: length, maxLength: length }),
        fc.array(fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100), { minLength: length, maxLength: length }),
      );
      return fc.array(column, { minLength: fields, maxLength: fields }).map((columns) =>
        Array.from({ length }, (_, i) => Object.fromEntries(columns.map((values, f) => [`f${f}`, values[i]]))),
      );
    }),
  );

  it('give back any page of one shape as it reads through JSON', () => {
    fc.assert(
      fc.property(page, (rows) => {
        const packed = PackedRows.pack(rows);
        expect(packed).not.toBeNull();
        expect(packed!.length).toBe(rows.length);
        expect(packed!.rows()).toStrictEqual(throughJson(rows));
      }),
      { numRuns: 400 },
    );
  });

  it('come back from storage (a structured clone) as they were, and malformed ones are refused', () => {
    fc.assert(
      fc.property(page, (rows) => {
        const stored = structuredClone(PackedRows.pack(rows)!.toStored());
        expect(PackedRows.fromStored(stored)!.rows()).toStrictEqual(throughJson(rows));
      }),
      { numRuns: 100 },
    );
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, plate: `P${i}`, status: i % 2 ? 'Active' : 'Ended', at: new Date(i * 1000).toISOString(), amount: i / 100 }));
    const good = PackedRows.pack(rows)!.toStored();
    const broken: unknown[] = [
      null,
      { ...good, length: 299 },
      { ...good, length: 0 },
      { ...good, fields: good.fields.slice(1) },
      { ...good, fields: [1, ...good.fields.slice(1)] },
      { ...good, columns: good.columns.map((column) => ({ ...column, kind: 'other' })) },
      { ...good, columns: good.columns.map((column) => ('values' in column && ArrayBuffer.isView(column.values) ? { ...column, values: column.values.slice(1) } : column)) },
      { ...good, columns: good.columns.map((column) => (column.kind === 'text' ? { ...column, ends: column.ends.map((end) => end + 1) } : column)) },
      { ...good, columns: good.columns.map((column) => (column.kind === 'dict' ? { ...column, words: column.words.slice(1) } : column)) },
    ];
    expect(PackedRows.fromStored(good)!.rows()).toStrictEqual(rows);
    for (const value of broken) expect(PackedRows.fromStored(value), JSON.stringify(value)?.slice(0, 80)).toBeNull();
  });

  it('are not made for rows of different shapes or with values JSON changes', () => {
    expect(PackedRows.pack([])).toBeNull();
    expect(PackedRows.pack([{ a: 1, b: 2 }, { b: 2, a: 1 }])).toBeNull();
    expect(PackedRows.pack([{ a: 1 }, { a: 1, b: 2 }])).toBeNull();
    for (const odd of [-0, Number.NaN, Number.POSITIVE_INFINITY, undefined, { nested: 1 }, [1]]) {
      expect(PackedRows.pack([{ a: 1 }, { a: odd }]), String(odd)).toBeNull();
    }
    expect(() => PackedRows.pack([{ a: 1 }])!.row(1)).toThrow(RangeError);
  });
});

describe('staged pages in memory', () => {
  const stagedPage = (seq: number, length: number): StagedPageRow => ({
    seq,
    type: 'valid',
    source: 'transactions',
    keys: Float64Array.from({ length }, (_, i) => seq * 10_000 + i),
    expiresAt: new Uint32Array(length),
  });
  const rowsOf = (seq: number, length: number) => Array.from({ length }, (_, i) => ({ transaction_id: seq * 10_000 + i, license_plate: `P${seq}-${i}` }));

  it('hold rows up to the memory cap, and hold more once expanded pages are dropped', () => {
    const one = PackedRows.pack(rowsOf(1, 100))!;
    const pages = new StagedPages(one.bytes * 2.5);
    for (const seq of [1, 2, 3]) pages.add(stagedPage(seq, 100), PackedRows.pack(rowsOf(seq, 100)));
    expect(pages.locate('transactions', 10_005)?.page.packed?.row(5)).toEqual({ transaction_id: 10_005, license_plate: 'P1-5' });
    expect(pages.locate('transactions', 20_005)?.page.packed).not.toBeNull();
    expect(pages.locate('transactions', 30_005)?.page.packed).toBeNull();
    expect(pages.packedBytes).toBeLessThanOrEqual(one.bytes * 2.5);
    pages.dropThrough(2);
    pages.add(stagedPage(4, 100), PackedRows.pack(rowsOf(4, 100)));
    expect(pages.locate('transactions', 40_005)?.page.packed?.row(5)).toEqual({ transaction_id: 40_005, license_plate: 'P4-5' });
    // Rows that do not match the page's keys are not held.
    pages.clear();
    expect(pages.packedBytes).toBe(0);
    pages.add(stagedPage(5, 100), PackedRows.pack(rowsOf(5, 99)));
    expect(pages.locate('transactions', 50_005)?.page.packed).toBeNull();
  });
});
