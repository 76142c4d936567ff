import { SEARCH_CATEGORIES, SEARCH_PAGE_SIZE, type SearchCategory } from '../../../src/worker/enforcement-worker-api';
import type { PlateIndexEntry, PlateMatchQuery, PlateMatches } from '../../../src/worker/plate-index';

/** The look-alike groups, written out independently of the index's tables. */
const LOOK_ALIKES = ['O0QD', 'I1L', 'S5', 'B8', 'Z2', 'G6'];

/** Maps every UTF-16 code unit of an upper-cased string to its group's first character (others to themselves). */
export function referenceFold(upper: string): string {
  let folded = '';
  for (let i = 0; i < upper.length; i++) {
    const unit = upper.charAt(i);
    folded += LOOK_ALIKES.find((group) => group.includes(unit))?.charAt(0) ?? unit;
  }
  return folded;
}

/** The plate index's contract as a plain filter over the live entries (one per source and key). */
export function referenceMatch(entries: readonly PlateIndexEntry[], query: PlateMatchQuery): PlateMatches {
  const pageSize = query.pageSize ?? SEARCH_PAGE_SIZE;
  const needle = query.text.trim().toUpperCase();
  const foldedNeedle = referenceFold(needle);
  const categoryOf = (entry: PlateIndexEntry): SearchCategory =>
    entry.source === 'transactions' ? (entry.expiresAt > query.nowSeconds ? 'valid' : 'expired') : entry.source;
  const located = entries.filter((entry) => needle !== '' && (query.locationId === undefined || entry.locationId === query.locationId));
  const isExact = (entry: PlateIndexEntry) => entry.plate.toUpperCase().includes(needle);
  const isSimilar = (entry: PlateIndexEntry) => query.similar === true && referenceFold(entry.plate.toUpperCase()).includes(foldedNeedle);
  const result = {} as PlateMatches;
  for (const category of SEARCH_CATEGORIES) {
    const inCategory = located.filter((entry) => categoryOf(entry) === category);
    const rank = (entry: PlateIndexEntry): number => {
      if (category === 'valid') return entry.expiresAt;
      if (category === 'expired') return -entry.expiresAt;
      if (category === 'monthly_parkers') return 0;
      // Bookings: active ones (soonest ending first), then ended ones (most recent first).
      return entry.expiresAt > query.nowSeconds ? entry.expiresAt : 2 ** 40 - entry.expiresAt;
    };
    const byRank = (a: PlateIndexEntry, b: PlateIndexEntry) => rank(a) - rank(b) || a.key - b.key;
    const exact = inCategory.filter(isExact).sort(byRank).map((entry) => entry.key);
    const similar = inCategory.filter((entry) => !isExact(entry) && isSimilar(entry)).sort(byRank).map((entry) => entry.key);
    const ranked = [...exact, ...similar];
    const requested = query.pages?.[category];
    const wanted = requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.floor(requested) : 0;
    const page = ranked.length === 0 ? 0 : Math.min(wanted, Math.ceil(ranked.length / pageSize) - 1);
    const start = page * pageSize;
    const keys = ranked.slice(start, start + pageSize);
    const similarFrom = Math.min(keys.length, Math.max(0, exact.length - start));
    result[category] = { total: ranked.length, exactTotal: exact.length, page, keys, similarFrom };
  }
  return result;
}
