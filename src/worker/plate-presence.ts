/**
 * Presence bitmaps: one bit per slot for each of
 * - 37 character classes (A–Z, 0–9, everything else): the plate contains a character of the class;
 * - 32 bigram buckets (a hash of two adjacent characters' classes): the plate contains such a pair.
 * A query's candidates are the AND of its characters' and adjacent pairs' bitmaps (exact for a one-character query
 * of a letter or digit); only candidates are compared with the plate. 69 bits per entry (~4.3 MB for 500k).
 *
 * Layout: row-major, `words = ceil(size / 32)` Uint32 words per row; slot s is bit (s & 31) of word (s >>> 5).
 */
import { CELL_WIDTH, OVERFLOW_MARK, type PlateSegment } from './plate-segment';

const LETTERS = 26;
const DIGITS = 10;
export const OTHER_CLASS = LETTERS + DIGITS;
const CLASS_COUNT = OTHER_CLASS + 1;
const BIGRAM_BUCKETS = 32;
export const PRESENCE_ROWS = CLASS_COUNT + BIGRAM_BUCKETS;

const ASCII_CLASS = new Uint8Array(128).fill(OTHER_CLASS);
for (let code = 65; code <= 90; code++) ASCII_CLASS[code] = code - 65;
for (let code = 48; code <= 57; code++) ASCII_CLASS[code] = LETTERS + code - 48;

/** Row of each (class, class) pair: a multiplicative hash of the pair into the bigram buckets. */
const BIGRAM_ROW = new Uint8Array(CLASS_COUNT * CLASS_COUNT);
for (let pair = 0; pair < BIGRAM_ROW.length; pair++) BIGRAM_ROW[pair] = CLASS_COUNT + (Math.imul(pair + 1, 0x9e3779b1) >>> 27);

/** The class (= row) of an upper-cased UTF-16 code unit. */
export function characterClass(code: number): number {
  return code < 128 ? ASCII_CLASS[code]! : OTHER_CLASS;
}

/** The row of two adjacent characters' classes. */
export function bigramRow(firstClass: number, secondClass: number): number {
  return BIGRAM_ROW[firstClass * CLASS_COUNT + secondClass]!;
}

export function presenceWords(size: number): number {
  return (size + 31) >>> 5;
}

export function presenceLength(size: number): number {
  return PRESENCE_ROWS * presenceWords(size);
}

export function buildPresence(segment: PlateSegment): Uint32Array {
  const { cells, overflow } = segment;
  const size = segment.keys.length;
  const words = presenceWords(size);
  const presence = new Uint32Array(PRESENCE_ROWS * words);
  const mark = (slot: number, code: number, previous: number): number => {
    const cls = characterClass(code);
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    presence[cls * words + word]! |= bit;
    if (previous >= 0) presence[BIGRAM_ROW[previous * CLASS_COUNT + cls]! * words + word]! |= bit;
    return cls;
  };
  for (let slot = 0; slot < size; slot++) {
    const cell = slot * CELL_WIDTH;
    if (cells[cell] === OVERFLOW_MARK) continue;
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    let previous = -1;
    for (let offset = cell; offset < cell + CELL_WIDTH; offset++) {
      const code = cells[offset]!;
      if (code === 0) break;
      const cls = code < 128 ? ASCII_CLASS[code]! : OTHER_CLASS;
      presence[cls * words + word]! |= bit;
      if (previous >= 0) presence[BIGRAM_ROW[previous * CLASS_COUNT + cls]! * words + word]! |= bit;
      previous = cls;
    }
  }
  for (let index = 0; index < overflow.slots.length; index++) {
    const slot = overflow.slots[index]!;
    let previous = -1;
    for (let offset = overflow.starts[index]!; offset < overflow.starts[index + 1]!; offset++) {
      previous = mark(slot, overflow.chars[offset]!, previous);
    }
  }
  return presence;
}

/** The segment's bitmaps, built now if this is the first query since the segment was made. */
export function presenceOf(segment: PlateSegment): Uint32Array {
  segment.presence ??= buildPresence(segment);
  return segment.presence;
}
