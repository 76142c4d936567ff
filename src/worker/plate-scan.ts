import { OTHER_CLASS, bigramRow, characterClass, presenceOf, presenceWords } from './plate-presence';
import { CELL_WIDTH, OVERFLOW_MARK, findOverflow, type OverflowPlates, type PlateSegment } from './plate-segment';

/**
 * Where one category's matches go: `count` counts every match, and the keys of matches ranked [from, to) in slot
 * order (ascending key) are collected.
 */
export interface CategorySink {
  count: number;
  from: number;
  to: number;
  keys: number[];
}

export function newSink(from: number, pageSize: number): CategorySink {
  return { count: 0, from, to: from + pageSize, keys: [] };
}

/** Sentinel location meaning "any location" (real location ids are uint32). */
export const ANY_LOCATION = -1;

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function overflowContains(overflow: OverflowPlates, slot: number, codes: Uint16Array): boolean {
  const index = findOverflow(overflow, slot);
  if (index < 0) return false;
  const { chars, starts } = overflow;
  const last = starts[index + 1]! - codes.length;
  for (let offset = starts[index]!; offset <= last; offset++) {
    let i = 0;
    while (i < codes.length && chars[offset + i] === codes[i]) i++;
    if (i === codes.length) return true;
  }
  return false;
}

/**
 * Feeds every entry whose plate contains `needle` (upper-cased, non-empty) and whose location is `locationId` (or
 * any, with ANY_LOCATION) to `valid` when its expiry is later than `nowSeconds` and to `expired` otherwise. Sources
 * without the split pass one sink as both and nowSeconds = -1 (every expiry is later).
 *
 * Candidates come from the presence bitmaps in ascending slot order; each is checked by location, then (unless the
 * bitmap is exact) by comparing the needle with its cell. Cost: one AND per 32 slots and bitmap row, plus the
 * candidates (one cache line each).
 */
export function scanSegment(
  segment: PlateSegment,
  needle: string,
  locationId: number,
  nowSeconds: number,
  valid: CategorySink,
  expired: CategorySink,
): void {
  const size = segment.keys.length;
  if (size === 0) return;
  const presence = presenceOf(segment);
  const words = presenceWords(size);

  const length = needle.length;
  const codes = new Uint16Array(length);
  const rows: number[] = [];
  let fitsCells = length <= CELL_WIDTH;
  let previous = -1;
  for (let i = 0; i < length; i++) {
    const code = needle.charCodeAt(i);
    codes[i] = code;
    if (code === 0 || code >= OVERFLOW_MARK) fitsCells = false;
    const cls = characterClass(code);
    if (!rows.includes(cls * words)) rows.push(cls * words);
    if (previous >= 0 && !rows.includes(bigramRow(previous, cls) * words)) rows.push(bigramRow(previous, cls) * words);
    previous = cls;
  }
  const anyLocation = locationId === ANY_LOCATION;
  // A one-character letter or digit query is answered by its bitmap alone.
  const exact = length === 1 && characterClass(codes[0]!) !== OTHER_CLASS;
  if (exact && anyLocation && valid === expired) {
    countExact(segment, presence, rows[0]!, words, valid);
    return;
  }

  const { cells, keys, locationIds, expiresAt, overflow } = segment;
  const cellWords = segment.cellWords;
  // The needle packed little-endian into at most two words, to compare a window of a cell in one or two steps.
  const headLength = length < 4 ? length : 4;
  const tailLength = length - headLength;
  let head = 0;
  let tail = 0;
  for (let i = 0; i < headLength; i++) head |= codes[i]! << (8 * i);
  for (let i = 0; i < tailLength; i++) tail |= codes[headLength + i]! << (8 * i);
  const headMask = headLength === 4 ? -1 : (1 << (8 * headLength)) - 1;
  const tailMask = tailLength === 4 ? -1 : (1 << (8 * tailLength)) - 1;
  const lastOffset = CELL_WIDTH - length;
  const firstRow = rows[0]!;
  const rowCount = rows.length;
  let validCount = valid.count;
  let expiredCount = expired.count;
  const validFrom = valid.from;
  const validTo = valid.to;
  const expiredFrom = expired.from;
  const expiredTo = expired.to;

  for (let w = 0; w < words; w++) {
    let word = presence[firstRow + w]!;
    for (let r = 1; r < rowCount && word !== 0; r++) word &= presence[rows[r]! + w]!;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const slot = (w << 5) + 31 - Math.clz32(low);
      if (!anyLocation && locationIds[slot] !== locationId) continue;
      if (!exact) {
        if (cells[slot * CELL_WIDTH] === OVERFLOW_MARK) {
          if (!overflowContains(overflow, slot, codes)) continue;
        } else {
          // A needle that cannot sit in a cell (too long, NUL, ≥ 0xFF) matches overflow plates only.
          if (!fitsCells) continue;
          const low32 = cellWords[slot * 2]!;
          const high32 = cellWords[slot * 2 + 1]!;
          let offset = 0;
          for (; offset <= lastOffset; offset++) {
            const shift = 8 * offset;
            const window =
              offset === 0 ? low32 : offset < 4 ? (low32 >>> shift) | (high32 << (32 - shift)) : high32 >>> (shift - 32);
            if (((window ^ head) & headMask) !== 0) continue;
            if (tailLength === 0) break;
            // offset + 4 ≥ 4: the tail lies in the high word.
            const tailWindow = offset === 0 ? high32 : high32 >>> shift;
            if (((tailWindow ^ tail) & tailMask) === 0) break;
          }
          if (offset > lastOffset) continue;
        }
      }
      if (expiresAt[slot]! > nowSeconds) {
        const rank = validCount++;
        if (rank >= validFrom && rank < validTo) valid.keys.push(keys[slot]!);
      } else {
        const rank = expiredCount++;
        if (rank >= expiredFrom && rank < expiredTo) expired.keys.push(keys[slot]!);
      }
    }
  }
  // Expired first: a source without the split passes one sink as both, and only its valid count moved.
  expired.count = expiredCount;
  valid.count = validCount;
}

/** One exact bitmap row, no location and no split: count by popcount, visit bits only around the wanted page. */
function countExact(segment: PlateSegment, presence: Uint32Array, row: number, words: number, sink: CategorySink): void {
  const { keys } = segment;
  let count = sink.count;
  const { from, to } = sink;
  for (let w = 0; w < words; w++) {
    let word = presence[row + w]!;
    if (word === 0) continue;
    const bits = popcount(word);
    if (count + bits <= from || count >= to) {
      count += bits;
      continue;
    }
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const rank = count++;
      if (rank >= from && rank < to) sink.keys.push(keys[(w << 5) + 31 - Math.clz32(low)]!);
    }
  }
  sink.count = count;
}
