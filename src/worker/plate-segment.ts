/**
 * One source's slice of the plate index: an immutable, column-oriented run of entries in ascending key order.
 *
 * Plates sit in fixed 8-byte cells (upper-cased Latin-1 code units, zero-padded), so slot s's plate is bytes
 * [8s, 8s + 8) with no offset table, and checking a candidate touches one cache line. Plates that do not fit a cell
 * (longer than 8, or with a code unit of 0 or ≥ 0xFF) are marked 0xFF in their cell's first byte and kept whole in
 * `overflow`; upper-cased plates never contain 0xFF ('ÿ' upper-cases to U+0178), so the mark is unambiguous.
 *
 * Segments are never written in place: a change builds a new segment (a linear merge copying runs, a few ms at
 * 500k entries), which keeps queries free of tombstones and lets a snapshot share the arrays without copying.
 */
import type { Steps } from './yield';

export type KeyColumn = Float64Array | Uint32Array;

/** Slots a rebuild (or a bitmap build) handles between two points where it may pause (yield.ts Steps). */
export const SLOTS_PER_STEP = 8192;

export const CELL_WIDTH = 8;
/** Runs of kept slots at most this long are copied slot by slot (plate-segment rebuild). */
const SHORT_RUN = 32;
export const OVERFLOW_MARK = 0xff;

export interface OverflowPlates {
  /** Slots whose plate is not in its cell, ascending. */
  readonly slots: Uint32Array;
  /** Offset of each overflow plate in `chars`; length `slots.length + 1`. */
  readonly starts: Uint32Array;
  /** The overflow plates' UTF-16 code units, concatenated. */
  readonly chars: Uint16Array;
}

export interface PlateSegment {
  /** `size * CELL_WIDTH` bytes: each slot's upper-cased plate, zero-padded, or OVERFLOW_MARK first. */
  readonly cells: Uint8Array;
  /** The cells as little-endian 32-bit words (two per slot): a view of `cells` on little-endian machines. */
  readonly cellWords: Uint32Array;
  /** Ascending, unique. Uint32Array while every key is a uint32 (half the memory), Float64Array otherwise. */
  readonly keys: KeyColumn;
  readonly locationIds: Uint32Array;
  /** Unix seconds; 0 = never expires. */
  readonly expiresAt: Uint32Array;
  readonly overflow: OverflowPlates;
  /**
   * Presence bitmaps (plate-presence.ts), derived from the plates; built by the first query after a change and then
   * kept with the segment. Null until then.
   */
  presence: Uint32Array | null;
}

/** Entries to merge into a segment: ascending unique keys, plates already upper-cased. */
export interface SegmentAdditions {
  keys: Float64Array;
  plates: string[];
  locationIds: Uint32Array;
  expiresAt: Uint32Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `cells` as little-endian words: a view when the platform is little-endian and the bytes are aligned, else a copy. */
export function cellWordsOf(cells: Uint8Array): Uint32Array {
  if (LITTLE_ENDIAN && cells.byteOffset % 4 === 0) return new Uint32Array(cells.buffer, cells.byteOffset, cells.length >>> 2);
  const words = new Uint32Array(cells.length >>> 2);
  for (let i = 0; i < words.length; i++) {
    const at = i * 4;
    words[i] = cells[at]! | (cells[at + 1]! << 8) | (cells[at + 2]! << 16) | (cells[at + 3]! << 24);
  }
  return words;
}

const NO_OVERFLOW: OverflowPlates = { slots: new Uint32Array(0), starts: new Uint32Array(1), chars: new Uint16Array(0) };

export function emptySegment(): PlateSegment {
  return {
    cells: new Uint8Array(0),
    cellWords: new Uint32Array(0),
    keys: new Uint32Array(0),
    locationIds: new Uint32Array(0),
    expiresAt: new Uint32Array(0),
    overflow: NO_OVERFLOW,
    presence: null,
  };
}

export function segmentByteLength(segment: PlateSegment): number {
  const { overflow } = segment;
  return (
    segment.cells.byteLength +
    (segment.cellWords.buffer === segment.cells.buffer ? 0 : segment.cellWords.byteLength) +
    segment.keys.byteLength +
    segment.locationIds.byteLength +
    segment.expiresAt.byteLength +
    overflow.slots.byteLength +
    overflow.starts.byteLength +
    overflow.chars.byteLength +
    (segment.presence?.byteLength ?? 0)
  );
}

/** Whether an upper-cased plate fits a cell. */
export function fitsCell(plate: string): boolean {
  if (plate.length > CELL_WIDTH) return false;
  for (let i = 0; i < plate.length; i++) {
    const code = plate.charCodeAt(i);
    if (code === 0 || code >= OVERFLOW_MARK) return false;
  }
  return true;
}

/** Index into `overflow.slots` of `slot`, or -1. */
export function findOverflow(overflow: OverflowPlates, slot: number): number {
  const { slots } = overflow;
  let lo = 0;
  let hi = slots.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const probe = slots[mid]!;
    if (probe < slot) lo = mid + 1;
    else if (probe > slot) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Slot holding `key`, or -1. */
export function findSlot(keys: KeyColumn, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const probe = keys[mid]!;
    if (probe < key) lo = mid + 1;
    else if (probe > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

const UINT32_LIMIT = 2 ** 32;

function fitsUint32(keys: Float64Array): boolean {
  // Keys are ascending: the ends bound the rest.
  if (keys.length === 0) return true;
  if (keys[0]! < 0 || keys[keys.length - 1]! >= UINT32_LIMIT) return false;
  for (const key of keys) if (!Number.isInteger(key)) return false;
  return true;
}

function packOverflow(slots: number[], plates: string[]): OverflowPlates {
  if (slots.length === 0) return NO_OVERFLOW;
  const starts = new Uint32Array(slots.length + 1);
  let length = 0;
  plates.forEach((plate, i) => {
    starts[i] = length;
    length += plate.length;
  });
  starts[slots.length] = length;
  const chars = new Uint16Array(length);
  plates.forEach((plate, i) => {
    for (let c = 0; c < plate.length; c++) chars[starts[i]! + c] = plate.charCodeAt(c);
  });
  return { slots: Uint32Array.from(slots), starts, chars };
}

/** The upper-cased plate held in `slot`: from its cell, or from `overflow` when marked. */
export function plateAt(segment: PlateSegment, slot: number): string {
  const at = slot * CELL_WIDTH;
  if (segment.cells[at] === OVERFLOW_MARK) return overflowPlate(segment.overflow, findOverflow(segment.overflow, slot));
  let end = at;
  while (end < at + CELL_WIDTH && segment.cells[end] !== 0) end++;
  return String.fromCharCode(...segment.cells.subarray(at, end));
}

function overflowPlate(overflow: OverflowPlates, index: number): string {
  return String.fromCharCode(...overflow.chars.subarray(overflow.starts[index], overflow.starts[index + 1]));
}

/**
 * Where a rebuild put things, for carrying the presence bitmaps over (plate-presence.ts carryPresenceSteps): runs of kept
 * base slots as (from, to, length) triples, and the slots of the additions.
 */
export interface SlotMoves {
  runs: number[];
  added: number[];
}

/**
 * A new segment holding `base` without the slots flagged in `drop` (1 = drop), merged with `additions`.
 * The caller has already flagged the base slots whose keys `additions` replaces.
 * `moves`, when given, receives where the kept and added slots went.
 * As Steps (yield.ts: `finishNow` runs it in one piece): pauses every SLOTS_PER_STEP slots of the merge.
 */
export function* rebuildSegmentSteps(
  base: PlateSegment,
  drop: Uint8Array | null,
  additions: SegmentAdditions | null,
  moves?: SlotMoves,
): Steps<PlateSegment> {
  const baseSize = base.keys.length;
  const baseKeys = base.keys;
  const addKeys = additions?.keys ?? new Float64Array(0);
  const addSize = addKeys.length;
  let size = baseSize + addSize;
  if (drop !== null) for (let i = 0; i < baseSize; i++) size -= drop[i]!;

  const keys = baseKeys instanceof Float64Array || !fitsUint32(addKeys) ? new Float64Array(size) : new Uint32Array(size);
  const locationIds = new Uint32Array(size);
  const expiresAt = new Uint32Array(size);
  const cells = new Uint8Array(size * CELL_WIDTH);
  const overflowSlots: number[] = [];
  const overflowPlates: string[] = [];
  const baseOverflow = base.overflow;
  let baseOverflowIndex = 0;
  // The cells as words, two a slot, for copying a short run's cells: only where the new words are a view of the new
  // cells (little-endian; cellWordsOf copies otherwise), else a run is copied with set().
  const baseWords = base.cellWords;
  const cellWords = cellWordsOf(cells);
  const shortRun = cellWords.buffer === cells.buffer ? SHORT_RUN : 0;

  // Kept base slots are copied a run at a time; a run ends at a dropped slot or an addition.
  let runStart = -1;
  let runOut = 0;
  const copyRun = (end: number): void => {
    if (runStart < 0) return;
    const length = end - runStart;
    moves?.runs.push(runStart, runOut, length);
    if (length <= shortRun) {
      // A page's keys fall between the held ones, so most runs are a few slots: a loop, not four subarray views.
      for (let k = 0; k < length; k++) {
        keys[runOut + k] = baseKeys[runStart + k]!;
        locationIds[runOut + k] = base.locationIds[runStart + k]!;
        expiresAt[runOut + k] = base.expiresAt[runStart + k]!;
        cellWords[(runOut + k) * 2] = baseWords[(runStart + k) * 2]!;
        cellWords[(runOut + k) * 2 + 1] = baseWords[(runStart + k) * 2 + 1]!;
      }
    } else {
      keys.set(baseKeys.subarray(runStart, end), runOut);
      locationIds.set(base.locationIds.subarray(runStart, end), runOut);
      expiresAt.set(base.expiresAt.subarray(runStart, end), runOut);
      cells.set(base.cells.subarray(runStart * CELL_WIDTH, end * CELL_WIDTH), runOut * CELL_WIDTH);
    }
    // Overflow slots before the run were dropped; those inside move with it.
    while (baseOverflowIndex < baseOverflow.slots.length && baseOverflow.slots[baseOverflowIndex]! < end) {
      const slot = baseOverflow.slots[baseOverflowIndex]!;
      if (slot >= runStart) {
        overflowSlots.push(runOut + slot - runStart);
        overflowPlates.push(overflowPlate(baseOverflow, baseOverflowIndex));
      }
      baseOverflowIndex++;
    }
    runStart = -1;
  };

  let out = 0;
  let i = 0;
  let j = 0;
  let untilPause = SLOTS_PER_STEP;
  while (i < baseSize || j < addSize) {
    if (--untilPause === 0) {
      // A run in progress stays open across the pause: nothing is copied until it ends.
      yield;
      untilPause = SLOTS_PER_STEP;
    }
    if (i < baseSize && drop !== null && drop[i] === 1) {
      copyRun(i);
      i++;
    } else if (j >= addSize || (i < baseSize && baseKeys[i]! < addKeys[j]!)) {
      if (runStart < 0) {
        runStart = i;
        runOut = out;
      }
      i++;
      out++;
    } else {
      copyRun(i);
      const plate = additions!.plates[j]!;
      moves?.added.push(out);
      keys[out] = addKeys[j]!;
      locationIds[out] = additions!.locationIds[j]!;
      expiresAt[out] = additions!.expiresAt[j]!;
      const cell = out * CELL_WIDTH;
      if (fitsCell(plate)) {
        for (let c = 0; c < plate.length; c++) cells[cell + c] = plate.charCodeAt(c);
      } else {
        cells[cell] = OVERFLOW_MARK;
        overflowSlots.push(out);
        overflowPlates.push(plate);
      }
      j++;
      out++;
    }
  }
  copyRun(baseSize);
  const overflow = packOverflow(overflowSlots, overflowPlates);
  return { cells, cellWords: shortRun > 0 ? cellWords : cellWordsOf(cells), keys, locationIds, expiresAt, overflow, presence: null };
}
