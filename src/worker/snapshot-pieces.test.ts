import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDEX_SOURCES, PlateIndex, type PlateIndexEntry } from './plate-index';
import { joinSnapshot, splitSnapshot } from './snapshot-pieces';
import type { PlateIndexPieceRow, PlateIndexRow } from './store';

const NOW = 1_750_000_000;

function indexOf(count: number, seed: number): PlateIndex {
  const index = new PlateIndex();
  const entries: PlateIndexEntry[] = [];
  let state = seed;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  for (let key = 1; key <= count; key++) {
    const source = INDEX_SOURCES[next() % INDEX_SOURCES.length]!;
    // Some plates longer than a cell, so the overflow arrays are not empty.
    const plate = next().toString(36).toUpperCase() + (key % 7 === 0 ? 'LONGPLATE' : '');
    entries.push({ source, key, plate, locationId: 1 + (next() % 3), expiresAt: source === 'monthly_parkers' ? 0 : NOW + (next() % 5000) - 2500 });
  }
  index.upsert(entries);
  index.match({ text: 'A', nowSeconds: NOW }); // builds the presence bitmaps
  return index;
}

function stored(index: PlateIndex, pieceBytes: number): { head: PlateIndexRow; pieces: PlateIndexPieceRow[] } {
  const split = splitSnapshot(index.toSnapshot(), pieceBytes);
  // As IndexedDB gives them back: cloned.
  return { head: structuredClone({ ...split.head, generation: 7 }), pieces: structuredClone([...split.pieces()]) };
}

describe('the plate index snapshot in pieces', () => {
  it('gives back the same index from pieces of any size, none over the size asked for', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 8, max: 4096 }), fc.integer(), (count, pieceBytes, seed) => {
        const index = indexOf(count, seed);
        const { head, pieces } = stored(index, pieceBytes);
        for (const piece of pieces) expect(piece.data.byteLength).toBeLessThanOrEqual(pieceBytes);
        expect(pieces.map((piece) => piece.id[1])).toEqual(pieces.map((_, n) => n));
        const restored = PlateIndex.fromSnapshot(joinSnapshot(head, pieces));
        expect(restored.toSnapshot()).toEqual(index.toSnapshot());
        expect(restored.match({ text: '1', nowSeconds: NOW, similar: true })).toEqual(index.match({ text: '1', nowSeconds: NOW, similar: true }));
      }),
      { numRuns: 40 },
    );
  });

  it('refuses pieces missing, extra, out of order or of another type, and a row of the earlier one-value format', () => {
    const { head, pieces } = stored(indexOf(300, 1), 64);
    expect(pieces.length).toBeGreaterThan(32);
    expect(() => joinSnapshot(head, pieces.slice(0, -1))).toThrow(/missing/);
    expect(() => joinSnapshot(head, [...pieces, { id: ['piece', pieces.length], data: new Uint8Array(1) }])).toThrow(/outnumber/);
    const swapped = [...pieces];
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    expect(() => joinSnapshot(head, swapped)).toThrow(/do not match/);
    const retyped = pieces.map((piece, n) => (n === 0 ? { ...piece, data: new Float64Array(piece.data.length) } : piece));
    expect(() => joinSnapshot(head, retyped)).toThrow(/do not match/);
    const longer = { ...head, arrays: head.arrays.map((array, n) => (n === 1 ? { ...array, length: array.length + 1 } : array)) };
    expect(() => joinSnapshot(longer, pieces)).toThrow(/add up/);
    const earlier = { id: 'current', generation: 7, snapshot: indexOf(10, 2).toSnapshot() } as unknown as PlateIndexRow;
    expect(() => joinSnapshot(earlier, [])).toThrow(/earlier format/);
  });
});
