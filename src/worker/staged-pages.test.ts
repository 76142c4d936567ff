import { describe, expect, it } from 'vitest';
import { PackedRows } from './packed-rows';
import type { StagedPageRow } from './store';
import { StagedPages } from './store-staging';

/** A staged page of transactions with keys `keys`, each row naming its page (`note`) so a test sees which copy it got. */
function page(seq: number, keys: number[]): { row: StagedPageRow; packed: PackedRows } {
  const rows = keys.map((key) => ({ transaction_id: key, license_plate: `P${key}`, expiry_date_time_unix: 100, note: `page ${seq}` }));
  const packed = PackedRows.pack(rows);
  if (packed === null) throw new Error('rows of one shape pack');
  const row: StagedPageRow = {
    seq,
    type: 'valid',
    source: 'transactions',
    keys: Float64Array.from(keys),
    expiresAt: Uint32Array.from(keys, () => 100),
  };
  return { row, packed };
}

const noteOf = (staged: StagedPages, key: number) => (staged.expandedRow('transactions', key) as { note?: string } | undefined)?.note;

describe('staged pages: the rows of expanded pages kept while the expansion runs', () => {
  it('keeps them with keepRows, newest page first for a key in two, and releases them', () => {
    const staged = new StagedPages();
    const one = page(1, [1, 2, 3]);
    const two = page(2, [3, 4]);
    staged.add(one.row, one.packed);
    staged.add(two.row, two.packed);
    staged.dropThrough(1, true);
    expect(staged.locate('transactions', 1)).toBeNull();
    expect(noteOf(staged, 1)).toBe('page 1');
    // Key 3 is still staged in page 2 (searches look there first); not yet among the expanded.
    expect(noteOf(staged, 3)).toBe('page 1');
    staged.dropThrough(2, true);
    expect(noteOf(staged, 3)).toBe('page 2');
    expect(noteOf(staged, 4)).toBe('page 2');
    expect(staged.expandedRow('spothero', 4)).toBeUndefined();
    expect(staged.packedBytes).toBe(one.packed.bytes + two.packed.bytes);
    staged.releaseExpanded();
    expect(noteOf(staged, 1)).toBeUndefined();
    expect(staged.packedBytes).toBe(0);
  });

  it('releases every expanded page when a page is dropped without its rows kept (its table may hold newer values)', () => {
    const staged = new StagedPages();
    const one = page(1, [1, 2]);
    const two = page(2, [2, 3]);
    staged.add(one.row, one.packed);
    staged.add(two.row, null); // beyond the memory cap, or read back from disk: no rows in memory
    staged.dropThrough(1, true);
    expect(noteOf(staged, 2)).toBe('page 1');
    staged.dropThrough(2, true);
    // Page 2 put key 2 anew into the table; page 1's copy must not answer for it.
    expect(noteOf(staged, 2)).toBeUndefined();
    expect(noteOf(staged, 1)).toBeUndefined();
    expect(staged.packedBytes).toBe(0);

    const three = page(3, [5]);
    staged.add(three.row, three.packed);
    staged.dropThrough(3, false);
    expect(noteOf(staged, 5)).toBeUndefined();
  });

  it('gives way to a new staged page under the memory cap, oldest expanded page first', () => {
    const sizes = [page(1, [1, 2, 3, 4]), page(2, [5, 6, 7, 8]), page(3, [9, 10, 11, 12])];
    const cap = sizes[0]!.packed.bytes + sizes[1]!.packed.bytes + 8;
    const staged = new StagedPages(cap);
    staged.add(sizes[0]!.row, sizes[0]!.packed);
    staged.add(sizes[1]!.row, sizes[1]!.packed);
    staged.dropThrough(2, true);
    staged.add(sizes[2]!.row, sizes[2]!.packed);
    expect(staged.first()?.packed).not.toBeNull(); // the new page's rows are in memory
    expect(noteOf(staged, 1)).toBeUndefined(); // page 1 gave way
    expect(noteOf(staged, 5)).toBe('page 2');
    expect(staged.packedBytes).toBeLessThanOrEqual(cap);
    staged.clear();
    expect(noteOf(staged, 5)).toBeUndefined();
    expect(staged.packedBytes).toBe(0);
  });
});
