import { SEARCH_CATEGORIES, SEARCH_PAGE_SIZE, type SearchCategory } from '../../../src/worker/enforcement-worker-api';
import type { PlateIndexEntry, PlateMatchQuery, PlateMatches } from '../../../src/worker/plate-index';

/** The plate index's contract as a plain filter over the live entries (one per source and key). */
export function referenceMatch(entries: readonly PlateIndexEntry[], query: PlateMatchQuery): PlateMatches {
  const pageSize = query.pageSize ?? SEARCH_PAGE_SIZE;
  const needle = query.text.trim().toUpperCase();
  const categoryOf = (entry: PlateIndexEntry): SearchCategory =>
    entry.source === 'transactions' ? (entry.expiresAt > query.nowSeconds ? 'valid' : 'expired') : entry.source;
  const hits = entries.filter(
    (entry) =>
      needle !== '' &&
      (query.locationId === undefined || entry.locationId === query.locationId) &&
      entry.plate.toUpperCase().includes(needle),
  );
  const result = {} as PlateMatches;
  for (const category of SEARCH_CATEGORIES) {
    const keys = hits.filter((entry) => categoryOf(entry) === category).map((entry) => entry.key);
    keys.sort((a, b) => a - b);
    const requested = query.pages?.[category];
    const wanted = requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.floor(requested) : 0;
    const page = keys.length === 0 ? 0 : Math.min(wanted, Math.ceil(keys.length / pageSize) - 1);
    result[category] = { total: keys.length, page, keys: keys.slice(page * pageSize, (page + 1) * pageSize) };
  }
  return result;
}
