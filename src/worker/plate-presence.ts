/**
 * Presence bitmaps: one bit per slot for each of
 * - 37 character classes (A–Z, 0–9, everything else): the plate contains a character of the class;
 * - 6 confusable groups (CONFUSABLE_GROUPS: O0QD, I1L, S5, B8, Z2, G6): the plate contains a character of the group;
 * - 32 bigram buckets (a hash of two adjacent characters' folded classes, where every class of a confusable group
 *   folds to the group's first): the plate contains such a pair.
 * An exact query's candidates are the AND of its characters' class rows and its adjacent pairs' buckets; a similar
 * query uses the group row in place of the class row for a confusable character, and the same buckets (folding
 * makes "0G" and "D6" one pair). A one-character letter or digit query is answered by its class row (exact) or its
 * group row (similar) alone; otherwise only candidates are compared with the plate.
 * 75 bits per entry (~4.7 MB for 500k).
 *
 * Layout: row-major, `words = ceil(size / 32)` Uint32 words per row; slot s is bit (s & 31) of word (s >>> 5).
 */
import { CELL_WIDTH, findOverflow, OVERFLOW_MARK, SLOTS_PER_STEP, type PlateSegment, type SlotMoves } from './plate-segment';
import { finishNow, type Steps } from './yield';

const LETTERS = 26;
const DIGITS = 10;
export const OTHER_CLASS = LETTERS + DIGITS;
const CLASS_COUNT = OTHER_CLASS + 1;

/**
 * Characters commonly misread for one another (upper case). "Similar" matching maps each character to its group's
 * first character (every other character to itself) and compares the mapped strings.
 */
export const CONFUSABLE_GROUPS = ['O0QD', 'I1L', 'S5', 'B8', 'Z2', 'G6'] as const;
const GROUP_ROWS = CONFUSABLE_GROUPS.length;
const BIGRAM_BUCKETS = 32;
const FIRST_BIGRAM_ROW = CLASS_COUNT + GROUP_ROWS;
export const PRESENCE_ROWS = FIRST_BIGRAM_ROW + BIGRAM_BUCKETS;

const ASCII_CLASS = new Uint8Array(128).fill(OTHER_CLASS);
for (let code = 65; code <= 90; code++) ASCII_CLASS[code] = code - 65;
for (let code = 48; code <= 57; code++) ASCII_CLASS[code] = LETTERS + code - 48;

/**
 * FOLDED_CODE[c]: the code unit c < 256 maps to for similar matching (its group's first character, else itself).
 * It keeps 0 and 0xFF, so folded cells keep their padding and the overflow mark.
 */
export const FOLDED_CODE = new Uint8Array(256);
for (let code = 0; code < 256; code++) FOLDED_CODE[code] = code;
/** The class a class folds to (its group's first character's class, else itself). */
const FOLDED_CLASS = new Uint8Array(CLASS_COUNT);
for (let cls = 0; cls < CLASS_COUNT; cls++) FOLDED_CLASS[cls] = cls;
/** The row a similar query reads for a class: its group's row, or the class's own row outside the groups. */
const SIMILAR_ROW = new Uint8Array(CLASS_COUNT);
for (let cls = 0; cls < CLASS_COUNT; cls++) SIMILAR_ROW[cls] = cls;
CONFUSABLE_GROUPS.forEach((group, index) => {
  const first = group.charCodeAt(0);
  for (let i = 0; i < group.length; i++) {
    const code = group.charCodeAt(i);
    FOLDED_CODE[code] = first;
    FOLDED_CLASS[ASCII_CLASS[code]!] = ASCII_CLASS[first]!;
    SIMILAR_ROW[ASCII_CLASS[code]!] = CLASS_COUNT + index;
  }
});

/**
 * Row of each (folded class, folded class) pair: a multiplicative hash of the pair into the bigram buckets. With
 * ~800 pairs in 32 buckets, which frequent pairs share a bucket decides how many candidates a query has. Compared on
 * the bench's query mix for three data and query seeds, xxHash's PRIME32_3 was consistently among the best of the
 * multipliers tried (golden ratio 0x9e3779b1, used before folding; murmur3's 0x85ebca6b and 0xc2b2ae35): with it,
 * exact 2–3-character queries get as many candidates as the unfolded layout had or fewer, while 0x9e3779b1 on folded
 * pairs gave 1.5–3.3× as many similar candidates for 3-character queries.
 */
const BIGRAM_ROW = new Uint8Array(CLASS_COUNT * CLASS_COUNT);
for (let pair = 0; pair < BIGRAM_ROW.length; pair++) BIGRAM_ROW[pair] = FIRST_BIGRAM_ROW + (Math.imul(pair + 1, 0x27d4eb2f) >>> 27);

/** The class (= row) of an upper-cased UTF-16 code unit. */
export function characterClass(code: number): number {
  return code < 128 ? ASCII_CLASS[code]! : OTHER_CLASS;
}

/** Whether an upper-cased code unit belongs to a confusable group. */
export function isConfusable(code: number): boolean {
  return code < 128 && SIMILAR_ROW[ASCII_CLASS[code]!]! !== ASCII_CLASS[code]!;
}

/** The code unit an upper-cased code unit maps to for similar matching. */
export function foldCode(code: number): number {
  return code < 256 ? FOLDED_CODE[code]! : code;
}

/** The row similar matching reads for a class: its confusable group's row, or its own. */
export function similarRow(cls: number): number {
  return SIMILAR_ROW[cls]!;
}

/** The bucket row of two adjacent characters' classes (folded: exact and similar queries share it). */
export function bigramRow(firstClass: number, secondClass: number): number {
  return BIGRAM_ROW[FOLDED_CLASS[firstClass]! * CLASS_COUNT + FOLDED_CLASS[secondClass]!]!;
}

export function presenceWords(size: number): number {
  return (size + 31) >>> 5;
}

export function presenceLength(size: number): number {
  return PRESENCE_ROWS * presenceWords(size);
}

/** Per Latin-1 code unit (cells hold nothing else): its class (= row) and its folded class. */
const CODE_CLASS = new Uint8Array(256).fill(OTHER_CLASS);
const CODE_FOLDED_CLASS = new Uint8Array(256).fill(OTHER_CLASS);
CODE_CLASS.set(ASCII_CLASS);
for (let code = 0; code < 128; code++) CODE_FOLDED_CLASS[code] = FOLDED_CLASS[ASCII_CLASS[code]!]!;
/** The classes of each group's members, two to four per group. */
const GROUP_MEMBER_CLASSES = CONFUSABLE_GROUPS.map((group) => Array.from(group, (char) => ASCII_CLASS[char.charCodeAt(0)]!));

/** Sets each group row to the OR of its members' class rows. */
function fillGroupRows(presence: Uint32Array, words: number): void {
  GROUP_MEMBER_CLASSES.forEach((members, index) => {
    const target = (CLASS_COUNT + index) * words;
    for (const cls of members) {
      const source = cls * words;
      for (let w = 0; w < words; w++) presence[target + w]! |= presence[source + w]!;
    }
  });
}

/** Sets the bits of the plate in `slot`'s cell (not an overflow one). */
function setCellBits(presence: Uint32Array, words: number, cells: Uint8Array, slot: number): void {
  const word = slot >>> 5;
  const bit = 1 << (slot & 31);
  let previous = -1;
  const cell = slot * CELL_WIDTH;
  for (let offset = cell; offset < cell + CELL_WIDTH; offset++) {
    const code = cells[offset]!;
    if (code === 0) break;
    presence[CODE_CLASS[code]! * words + word]! |= bit;
    const folded = CODE_FOLDED_CLASS[code]!;
    if (previous >= 0) presence[BIGRAM_ROW[previous * CLASS_COUNT + folded]! * words + word]! |= bit;
    previous = folded;
  }
}

/** Sets the bits of overflow plate `index` (any UTF-16 code unit), held by `slot`. */
function setOverflowBits(presence: Uint32Array, words: number, overflow: PlateSegment['overflow'], index: number, slot: number): void {
  const word = slot >>> 5;
  const bit = 1 << (slot & 31);
  let previous = -1;
  for (let offset = overflow.starts[index]!; offset < overflow.starts[index + 1]!; offset++) {
    const cls = characterClass(overflow.chars[offset]!);
    presence[cls * words + word]! |= bit;
    const folded = FOLDED_CLASS[cls]!;
    if (previous >= 0) presence[BIGRAM_ROW[previous * CLASS_COUNT + folded]! * words + word]! |= bit;
    previous = folded;
  }
}

/** Sets the bits of one slot from its plate (its cell, or its overflow plate). */
function setSlotBits(presence: Uint32Array, words: number, segment: PlateSegment, slot: number): void {
  if (segment.cells[slot * CELL_WIDTH] !== OVERFLOW_MARK) return setCellBits(presence, words, segment.cells, slot);
  const index = findOverflow(segment.overflow, slot);
  if (index >= 0) setOverflowBits(presence, words, segment.overflow, index, slot);
}

/** ORs `length` bits of `source` from bit `from` into `target` from bit `to` (the target bits start clear). */
function copyBits(source: Uint32Array, from: number, target: Uint32Array, to: number, length: number): void {
  while (length > 0) {
    const take = length < 32 ? length : 32;
    const shift = from & 31;
    let bits = source[from >>> 5]! >>> shift;
    if (shift !== 0) bits |= (source[(from >>> 5) + 1] ?? 0) << (32 - shift);
    if (take < 32) bits &= (1 << take) - 1;
    const at = to & 31;
    target[to >>> 5]! |= bits << at;
    if (at !== 0 && take > 32 - at) target[(to >>> 5) + 1]! |= bits >>> (32 - at);
    from += take;
    to += take;
    length -= take;
  }
}

/** Bitmap rows carried between two pauses: a row costs ~size / 32 + runs word operations. */
const ROWS_PER_STEP = 8;

/**
 * The bitmaps of `segment`, rebuilt from a base whose bitmaps are `basePresence` (`moves` says where its slots went):
 * kept runs are copied row by row with their bits shifted, and only the added slots are read from their plates.
 * ~75 × (size / 32 + runs) word operations, where building them afresh reads every plate (8–35 ms at 100–200k
 * entries): a sync's page upserted while the officer searches would otherwise cost the next search that.
 * As Steps (yield.ts): pauses every ROWS_PER_STEP rows, and every SLOTS_PER_STEP added slots.
 */
export function* carryPresenceSteps(
  basePresence: Uint32Array,
  baseSize: number,
  segment: PlateSegment,
  moves: SlotMoves,
): Steps<Uint32Array> {
  const size = segment.keys.length;
  const words = presenceWords(size);
  const baseWords = presenceWords(baseSize);
  const presence = new Uint32Array(PRESENCE_ROWS * words);
  const { runs, added } = moves;
  for (let row = 0; row < PRESENCE_ROWS; row++) {
    if (row > 0 && row % ROWS_PER_STEP === 0) yield;
    // A row is copied as a bit range of its own: bits past a row's end in the base are zero, and a run never
    // reaches past the row.
    const rowRead = row * baseWords * 32;
    const rowWrite = row * words * 32;
    for (let r = 0; r < runs.length; r += 3) copyBits(basePresence, rowRead + runs[r]!, presence, rowWrite + runs[r + 1]!, runs[r + 2]!);
  }
  for (let i = 0; i < added.length; i++) {
    if (i > 0 && i % SLOTS_PER_STEP === 0) yield;
    setSlotBits(presence, words, segment, added[i]!);
  }
  fillGroupRows(presence, words);
  return presence;
}

export function buildPresence(segment: PlateSegment): Uint32Array {
  return finishNow(buildPresenceSteps(segment));
}

/** buildPresence as Steps: pauses every SLOTS_PER_STEP plates. */
export function* buildPresenceSteps(segment: PlateSegment): Steps<Uint32Array> {
  const { cells, overflow } = segment;
  const size = segment.keys.length;
  const words = presenceWords(size);
  const presence = new Uint32Array(PRESENCE_ROWS * words);
  for (let slot = 0; slot < size; slot++) {
    if (slot > 0 && slot % SLOTS_PER_STEP === 0) yield;
    if (cells[slot * CELL_WIDTH] !== OVERFLOW_MARK) setCellBits(presence, words, cells, slot);
  }
  // Overflow plates (few).
  for (let index = 0; index < overflow.slots.length; index++) setOverflowBits(presence, words, overflow, index, overflow.slots[index]!);
  fillGroupRows(presence, words);
  return presence;
}

/** The segment's bitmaps, built now if this is the first query since the segment was made. */
export function presenceOf(segment: PlateSegment): Uint32Array {
  segment.presence ??= buildPresence(segment);
  return segment.presence;
}
