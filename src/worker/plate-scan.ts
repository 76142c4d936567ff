import {
  FOLDED_CODE,
  OTHER_CLASS,
  bigramRow,
  characterClass,
  foldCode,
  presenceOf,
  presenceWords,
  similarRow,
} from './plate-presence';
import { CELL_WIDTH, OVERFLOW_MARK, findOverflow, type OverflowPlates, type PlateSegment } from './plate-segment';

/**
 * How a category's rows are ranked (within exact matches, then within similar-only ones):
 * - KEY_ORDER: slot order (ascending key): monthly parkers, whose entries carry no expiry.
 * - SOONEST_EXPIRY: ascending expiry (valid: the payment that runs out first comes first).
 * - LATEST_EXPIRY: descending expiry (expired: the most recent expiry first).
 * - ACTIVE_FIRST: entries expiring after `nowSeconds` first, soonest first, then ended ones, most recent first
 *   (bookings).
 * Ties keep slot order.
 */
export const KEY_ORDER = 0;
export const SOONEST_EXPIRY = 1;
export const LATEST_EXPIRY = 2;
export const ACTIVE_FIRST = 3;
export type SinkOrder = typeof KEY_ORDER | typeof SOONEST_EXPIRY | typeof LATEST_EXPIRY | typeof ACTIVE_FIRST;

/**
 * Where one category's matches go. Ranks run over exact matches first, then similar-but-not-exact ones, each in the
 * sink's order; the page wanted is ranks [from, to) of that order.
 * KEY_ORDER (slot order, the scan's own):
 * - `count` counts exact matches; `keys` collects the keys of exact ranks [from, to).
 * - `similarCount` counts similar-but-not-exact matches (similar scans only); `similarKeys` collects the keys of
 *   similar ranks [0, m), where m ≥ to − (final `count`): the page's similar part is then
 *   `similarKeys.slice(max(0, from − count), to − count)`. (A similar rank r has overall rank count + r, and `count`
 *   is only known at the end, so the scan keeps every similar rank below to − count-so-far.)
 * Other orders: `keys` and `similarKeys` hold the best `to` exact and similar-only matches, ranked (a bounded
 * insertion: one comparison per match once full); `pageKeys` cuts the exact page out of them.
 */
export interface CategorySink {
  count: number;
  from: number;
  to: number;
  keys: number[];
  similarCount: number;
  similarKeys: number[];
  order: SinkOrder;
  /** ACTIVE_FIRST only: what "active" is measured against. */
  nowSeconds: number;
  scores: number[];
  similarScores: number[];
}

export function newSink(from: number, pageSize: number, order: SinkOrder = KEY_ORDER, nowSeconds = 0): CategorySink {
  return {
    count: 0,
    from,
    to: from + pageSize,
    keys: [],
    similarCount: 0,
    similarKeys: [],
    order,
    nowSeconds,
    scores: [],
    similarScores: [],
  };
}

/** The sink's exact keys of ranks [from, to), in rank order. */
export function pageKeys(sink: CategorySink): number[] {
  return sink.order === KEY_ORDER ? sink.keys : sink.keys.slice(sink.from, sink.to);
}

/** A match's rank value in an ordered sink (lower first); expiries are uint32 seconds. */
function scoreOf(order: SinkOrder, expiresAt: number, nowSeconds: number): number {
  if (order === SOONEST_EXPIRY) return expiresAt;
  if (order === LATEST_EXPIRY) return -expiresAt;
  return expiresAt > nowSeconds ? expiresAt : 2 ** 33 - expiresAt;
}

/** Keeps the `limit` lowest (score, arrival) pairs in `scores`/`keys`, sorted; arrivals come in ascending key order. */
function offer(scores: number[], keys: number[], limit: number, score: number, key: number): void {
  let i = scores.length;
  if (i >= limit) {
    if (limit <= 0 || score >= scores[limit - 1]!) return;
    scores.pop();
    keys.pop();
    i--;
  }
  while (i > 0 && scores[i - 1]! > score) i--;
  scores.splice(i, 0, score);
  keys.splice(i, 0, key);
}

/** Records an exact match of rank `rank` in `sink`. */
function takeExact(sink: CategorySink, rank: number, key: number, expiresAt: number): void {
  if (sink.order === KEY_ORDER) {
    if (rank >= sink.from && rank < sink.to) sink.keys.push(key);
  } else {
    offer(sink.scores, sink.keys, sink.to, scoreOf(sink.order, expiresAt, sink.nowSeconds), key);
  }
}

/** Records a similar-only match of similar rank `rank` in `sink`, whose exact count so far is `count`. */
function takeSimilar(sink: CategorySink, rank: number, count: number, key: number, expiresAt: number): void {
  if (sink.order === KEY_ORDER) {
    if (rank < sink.to - count) sink.similarKeys.push(key);
  } else {
    offer(sink.similarScores, sink.similarKeys, sink.to - count, scoreOf(sink.order, expiresAt, sink.nowSeconds), key);
  }
}

/** Sentinel location meaning "any location" (real location ids are uint32). */
export const ANY_LOCATION = -1;

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Whether overflow plate `index` (-1: none) contains `codes`. */
function overflowContains(overflow: OverflowPlates, index: number, codes: Uint16Array): boolean {
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

/** Whether overflow plate `index`, folded, contains `folded` (a folded needle). */
function overflowContainsFolded(overflow: OverflowPlates, index: number, folded: Uint16Array): boolean {
  const { chars, starts } = overflow;
  const last = starts[index + 1]! - folded.length;
  for (let offset = starts[index]!; offset <= last; offset++) {
    let i = 0;
    while (i < folded.length && foldCode(chars[offset + i]!) === folded[i]) i++;
    if (i === folded.length) return true;
  }
  return false;
}

/**
 * A needle of at most CELL_WIDTH Latin-1 code units packed little-endian into two words, to compare with a cell's
 * windows in one or two steps.
 */
interface PackedNeedle {
  head: number;
  headMask: number;
  tail: number;
  tailMask: number;
  tailLength: number;
  /** The last offset in a cell where the needle can start. */
  lastOffset: number;
}

function packNeedle(codes: Uint16Array): PackedNeedle {
  const length = codes.length;
  const headLength = length < 4 ? length : 4;
  const tailLength = length - headLength;
  let head = 0;
  let tail = 0;
  for (let i = 0; i < headLength; i++) head |= codes[i]! << (8 * i);
  for (let i = 0; i < tailLength; i++) tail |= codes[headLength + i]! << (8 * i);
  const headMask = headLength === 4 ? -1 : (1 << (8 * headLength)) - 1;
  const tailMask = tailLength === 4 ? -1 : (1 << (8 * tailLength)) - 1;
  return { head, headMask, tail, tailMask, tailLength, lastOffset: CELL_WIDTH - length };
}

/** Whether the cell whose words are (low32, high32) contains the packed needle. */
function cellContains(low32: number, high32: number, needle: PackedNeedle): boolean {
  const { head, headMask, tail, tailMask, tailLength, lastOffset } = needle;
  for (let offset = 0; offset <= lastOffset; offset++) {
    const shift = 8 * offset;
    const window = offset === 0 ? low32 : offset < 4 ? (low32 >>> shift) | (high32 << (32 - shift)) : high32 >>> (shift - 32);
    if (((window ^ head) & headMask) !== 0) continue;
    if (tailLength === 0) return true;
    // offset + 4 ≥ 4: the tail lies in the high word.
    const tailWindow = offset === 0 ? high32 : high32 >>> shift;
    if (((tailWindow ^ tail) & tailMask) === 0) return true;
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
  if (exact && anyLocation && valid === expired && valid.order === KEY_ORDER) {
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
  const validOrdered = valid.order !== KEY_ORDER;
  const expiredOrdered = expired.order !== KEY_ORDER;

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
          if (!overflowContains(overflow, findOverflow(overflow, slot), codes)) continue;
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
      const expiry = expiresAt[slot]!;
      if (expiry > nowSeconds) {
        const rank = validCount++;
        if (validOrdered) takeExact(valid, rank, keys[slot]!, expiry);
        else if (rank >= validFrom && rank < validTo) valid.keys.push(keys[slot]!);
      } else {
        const rank = expiredCount++;
        if (expiredOrdered) takeExact(expired, rank, keys[slot]!, expiry);
        else if (rank >= expiredFrom && rank < expiredTo) expired.keys.push(keys[slot]!);
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

/**
 * The similar counterpart of scanSegment: feeds every entry whose folded plate contains the folded `needle` (see
 * CONFUSABLE_GROUPS) to its sink, counting it as exact when its plate also contains `needle` itself, else as similar.
 * Only worth calling for a needle with a confusable character: otherwise similar and exact matches are the same.
 *
 * Candidates are the AND of the group rows (class rows outside the groups) and folded pair buckets; each is checked
 * by location, then by comparing the folded needle with its folded cell (eight table look-ups) and, if that matches,
 * the needle with the cell. A one-character needle is decided by the group row and its class row alone.
 */
export function scanSegmentSimilar(
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
  const folded = new Uint16Array(length);
  const rows: number[] = [];
  let fitsCells = length <= CELL_WIDTH;
  let previous = -1;
  for (let i = 0; i < length; i++) {
    const code = needle.charCodeAt(i);
    codes[i] = code;
    folded[i] = foldCode(code);
    if (code === 0 || code >= OVERFLOW_MARK) fitsCells = false;
    const cls = characterClass(code);
    const row = similarRow(cls) * words;
    if (!rows.includes(row)) rows.push(row);
    if (previous >= 0 && !rows.includes(bigramRow(previous, cls) * words)) rows.push(bigramRow(previous, cls) * words);
    previous = cls;
  }
  const anyLocation = locationId === ANY_LOCATION;
  // A one-character letter or digit: the group row holds the similar matches, the class row the exact ones.
  const byBitmap = length === 1 && characterClass(codes[0]!) !== OTHER_CLASS;
  const exactRow = characterClass(codes[0]!) * words;
  if (byBitmap && anyLocation && valid === expired && valid.order === KEY_ORDER) {
    countExact(segment, presence, exactRow, words, valid);
    countSimilarOnly(segment, presence, exactRow, rows[0]!, words, valid);
    return;
  }

  const { cells, keys, locationIds, expiresAt, overflow } = segment;
  const cellWords = segment.cellWords;
  const fold = FOLDED_CODE;
  const exactNeedle = packNeedle(codes);
  const foldedNeedle = packNeedle(folded);
  const firstRow = rows[0]!;
  const rowCount = rows.length;
  let validCount = valid.count;
  let validSimilar = valid.similarCount;
  let expiredCount = expired.count;
  let expiredSimilar = expired.similarCount;
  const validFrom = valid.from;
  const validTo = valid.to;
  const expiredFrom = expired.from;
  const expiredTo = expired.to;
  const validOrdered = valid.order !== KEY_ORDER;
  const expiredOrdered = expired.order !== KEY_ORDER;

  for (let w = 0; w < words; w++) {
    let word = presence[firstRow + w]!;
    for (let r = 1; r < rowCount && word !== 0; r++) word &= presence[rows[r]! + w]!;
    const exactWord = byBitmap ? presence[exactRow + w]! : 0;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const slot = (w << 5) + 31 - Math.clz32(low);
      if (!anyLocation && locationIds[slot] !== locationId) continue;
      let isExact: boolean;
      if (byBitmap) {
        isExact = (exactWord & low) !== 0;
      } else {
        const cell = slot * CELL_WIDTH;
        if (cells[cell] === OVERFLOW_MARK) {
          const index = findOverflow(overflow, slot);
          if (index < 0 || !overflowContainsFolded(overflow, index, folded)) continue;
          isExact = overflowContains(overflow, index, codes);
        } else {
          // A needle that cannot sit in a cell (too long, NUL, ≥ 0xFF) matches overflow plates only.
          if (!fitsCells) continue;
          const foldedLow =
            fold[cells[cell]!]! |
            (fold[cells[cell + 1]!]! << 8) |
            (fold[cells[cell + 2]!]! << 16) |
            (fold[cells[cell + 3]!]! << 24);
          const foldedHigh =
            fold[cells[cell + 4]!]! |
            (fold[cells[cell + 5]!]! << 8) |
            (fold[cells[cell + 6]!]! << 16) |
            (fold[cells[cell + 7]!]! << 24);
          if (!cellContains(foldedLow, foldedHigh, foldedNeedle)) continue;
          isExact = cellContains(cellWords[slot * 2]!, cellWords[slot * 2 + 1]!, exactNeedle);
        }
      }
      const expiry = expiresAt[slot]!;
      if (expiry > nowSeconds) {
        if (isExact) {
          const rank = validCount++;
          if (validOrdered) takeExact(valid, rank, keys[slot]!, expiry);
          else if (rank >= validFrom && rank < validTo) valid.keys.push(keys[slot]!);
        } else {
          const rank = validSimilar++;
          if (validOrdered) takeSimilar(valid, rank, validCount, keys[slot]!, expiry);
          else if (rank < validTo - validCount) valid.similarKeys.push(keys[slot]!);
        }
      } else if (isExact) {
        const rank = expiredCount++;
        if (expiredOrdered) takeExact(expired, rank, keys[slot]!, expiry);
        else if (rank >= expiredFrom && rank < expiredTo) expired.keys.push(keys[slot]!);
      } else {
        const rank = expiredSimilar++;
        if (expiredOrdered) takeSimilar(expired, rank, expiredCount, keys[slot]!, expiry);
        else if (rank < expiredTo - expiredCount) expired.similarKeys.push(keys[slot]!);
      }
    }
  }
  // Expired first: a source without the split passes one sink as both, and only its valid counts moved.
  expired.count = expiredCount;
  expired.similarCount = expiredSimilar;
  valid.count = validCount;
  valid.similarCount = validSimilar;
}

/**
 * Similar-only matches of a one-character needle (group row AND NOT class row), no location and no split, after
 * countExact has counted the exact ones: popcount, visiting bits only while similar ranks below to − count remain.
 */
function countSimilarOnly(
  segment: PlateSegment,
  presence: Uint32Array,
  exactRow: number,
  groupRow: number,
  words: number,
  sink: CategorySink,
): void {
  const { keys } = segment;
  let count = sink.similarCount;
  const limit = sink.to - sink.count;
  for (let w = 0; w < words; w++) {
    let word = presence[groupRow + w]! & ~presence[exactRow + w]!;
    if (word === 0) continue;
    if (count >= limit) {
      count += popcount(word);
      continue;
    }
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const rank = count++;
      if (rank < limit) sink.similarKeys.push(keys[(w << 5) + 31 - Math.clz32(low)]!);
    }
  }
  sink.similarCount = count;
}
