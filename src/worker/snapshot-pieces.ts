import { INDEX_SOURCES, type PlateIndexSnapshot, type SegmentSnapshot } from './plate-index';
import type { PlateIndexPieceRow, PlateIndexRow, SnapshotArrayRow } from './store';

/**
 * The plate index snapshot as IndexedDB values of at most SNAPSHOT_PIECE_BYTES each. IndexedDB's put clones its value
 * on the calling thread (~1.5–2 ms a MB in Chromium 150's worker), and the whole snapshot of 500,000 records (~15 MB)
 * in one put held every search for 25–70 ms at the end of each sync call (bench:sync, 2026-11-25). Pieces are put one
 * request after another in one transaction, so searches run between them and the snapshot still commits whole.
 */
export const SNAPSHOT_PIECE_BYTES = 1 << 20;

type SnapshotArray = PlateIndexPieceRow['data'];
type ArrayType = SnapshotArrayRow['type'];

const CONSTRUCTORS = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Float64Array,
} as const satisfies Record<ArrayType, unknown>;

const FIELDS = [
  'cells',
  'keys',
  'locationIds',
  'expiresAt',
  'overflowSlots',
  'overflowStarts',
  'overflowChars',
  'presence',
] as const satisfies readonly (keyof SegmentSnapshot)[];

function typeOf(array: SnapshotArray): ArrayType {
  if (array instanceof Uint8Array) return 'Uint8Array';
  if (array instanceof Uint16Array) return 'Uint16Array';
  if (array instanceof Uint32Array) return 'Uint32Array';
  return 'Float64Array';
}

export interface SplitSnapshot {
  /** The row listing the arrays (put last). */
  head: Omit<PlateIndexRow, 'generation'>;
  /** The pieces in order, each copied from its array when asked for (so only one piece is extra in memory). */
  pieces(): Generator<PlateIndexPieceRow>;
}

export function splitSnapshot(snapshot: PlateIndexSnapshot, pieceBytes = SNAPSHOT_PIECE_BYTES): SplitSnapshot {
  const arrays: { row: SnapshotArrayRow; data: SnapshotArray; perPiece: number }[] = [];
  for (const source of INDEX_SOURCES) {
    for (const field of FIELDS) {
      const data = snapshot[source][field];
      const perPiece = Math.max(1, Math.floor(pieceBytes / data.BYTES_PER_ELEMENT));
      const pieces = Math.max(1, Math.ceil(data.length / perPiece));
      arrays.push({ row: { source, field, type: typeOf(data), length: data.length, pieces }, data, perPiece });
    }
  }
  return {
    head: { id: 'current', version: snapshot.version, arrays: arrays.map((array) => array.row) },
    *pieces() {
      let n = 0;
      for (const { row, data, perPiece } of arrays) {
        for (let piece = 0; piece < row.pieces; piece++) {
          yield { id: ['piece', n++], data: data.slice(piece * perPiece, (piece + 1) * perPiece) };
        }
      }
    },
  };
}

/**
 * The snapshot from its stored row and pieces (in id order), checked for shape; PlateIndex.fromSnapshot checks the
 * content. Throws a TypeError on anything that does not fit: the index is rebuilt from the store then.
 */
export function joinSnapshot(head: PlateIndexRow, pieces: readonly PlateIndexPieceRow[]): PlateIndexSnapshot {
  const fail = (why: string): never => {
    throw new TypeError(`The plate index snapshot's pieces ${why}`);
  };
  if (!Array.isArray(head.arrays)) fail('are not listed (a snapshot of an earlier format)');
  const segments = new Map<string, Record<string, SnapshotArray>>();
  let next = 0;
  for (const array of head.arrays) {
    const Constructor = CONSTRUCTORS[array.type];
    if (Constructor === undefined || !Number.isInteger(array.length) || !Number.isInteger(array.pieces) || array.pieces < 1) {
      fail(`list an unknown array (${array.source}.${array.field})`);
    }
    const parts = pieces.slice(next, next + array.pieces);
    parts.forEach((part, i) => {
      if (part.id[1] !== next + i || !(part.data instanceof Constructor)) fail(`do not match ${array.source}.${array.field}`);
    });
    if (parts.length !== array.pieces) fail(`are missing for ${array.source}.${array.field}`);
    next += array.pieces;
    let data: SnapshotArray;
    if (parts.length === 1) {
      data = parts[0]!.data;
    } else {
      data = new Constructor(parts.reduce((sum, part) => sum + part.data.length, 0));
      let at = 0;
      for (const part of parts) {
        data.set(part.data as never, at);
        at += part.data.length;
      }
    }
    if (data.length !== array.length) fail(`do not add up to ${array.source}.${array.field}`);
    const segment = segments.get(array.source) ?? {};
    segment[array.field] = data;
    segments.set(array.source, segment);
  }
  if (next !== pieces.length) fail('outnumber the arrays listed');
  const snapshot: Record<string, unknown> = { version: head.version };
  for (const source of INDEX_SOURCES) snapshot[source] = segments.get(source);
  // The shape per segment is checked by PlateIndex.fromSnapshot (each field's type and length).
  return snapshot as unknown as PlateIndexSnapshot;
}
