import { SEARCH_CATEGORIES, SEARCH_PAGE_SIZE, type SearchCategory } from '../../src/worker/enforcement-worker-api';
import type { IndexSource, PlateIndexEntry, PlateMatches, PlateMatchQuery } from '../../src/worker/plate-index';
import { CONFUSABLE_GROUPS } from '../../src/worker/plate-presence';

/**
 * The search bench's baseline (docs/benchmarks.md): the plainest way to answer the same query over the same plates,
 * a loop over every entry with `String.prototype.includes`, then each category's matches sorted into the index's rank
 * order and the requested page cut out. It gives the same totals and page keys as `PlateIndex.match`, which the bench
 * checks query by query: the ratio compares two ways of doing the same work.
 */

/** One source's entries, in ascending key order (as the index keeps them), plates upper-cased and folded. */
export interface PlainSource {
  keys: number[];
  plates: string[];
  /** Each plate with every look-alike character mapped to its group's first one (O0QD → O, I1L → I, …). */
  folded: string[];
  locationIds: number[];
  expiresAt: number[];
}

export type PlainPlates = Record<IndexSource, PlainSource>;

const FOLD = new Map<string, string>();
for (const group of CONFUSABLE_GROUPS) for (const character of group) FOLD.set(character, group[0]!);

export function fold(text: string): string {
  let folded = '';
  for (const character of text) folded += FOLD.get(character) ?? character;
  return folded;
}

/** The entries a sync gave the index, per source in key order. */
export function plainPlates(entries: Iterable<PlateIndexEntry>): PlainPlates {
  const bySource = new Map<IndexSource, PlateIndexEntry[]>();
  for (const entry of entries) {
    const list = bySource.get(entry.source) ?? [];
    list.push(entry);
    bySource.set(entry.source, list);
  }
  const source = (name: IndexSource): PlainSource => {
    const list = (bySource.get(name) ?? []).sort((a, b) => a.key - b.key);
    const plates = list.map((entry) => entry.plate.toUpperCase());
    return {
      keys: list.map((entry) => entry.key),
      plates,
      folded: plates.map(fold),
      locationIds: list.map((entry) => entry.locationId),
      expiresAt: list.map((entry) => entry.expiresAt),
    };
  };
  return { transactions: source('transactions'), spothero: source('spothero'), parkwhiz: source('parkwhiz'), monthly_parkers: source('monthly_parkers') };
}

interface Match {
  key: number;
  score: number;
  exact: boolean;
}

/** The index's rank orders (src/worker/plate-index.ts CATEGORY_ORDER): lower score first, ties by key. */
function score(category: SearchCategory, expiresAt: number, nowSeconds: number): number {
  if (category === 'valid') return expiresAt;
  if (category === 'expired') return -expiresAt;
  if (category === 'monthly_parkers') return 0;
  return expiresAt > nowSeconds ? expiresAt : 2 ** 33 - expiresAt;
}

const CATEGORY_SOURCE: Record<SearchCategory, IndexSource> = {
  valid: 'transactions',
  expired: 'transactions',
  spothero: 'spothero',
  parkwhiz: 'parkwhiz',
  monthly_parkers: 'monthly_parkers',
};

/** `PlateIndex.match` done plainly: every plate tested with `includes`, matches sorted, the page cut out. */
export function plainMatch(plates: PlainPlates, query: PlateMatchQuery): PlateMatches {
  const pageSize = query.pageSize ?? SEARCH_PAGE_SIZE;
  const needle = query.text.trim().toUpperCase();
  const similar = query.similar === true;
  const foldedNeedle = fold(needle);
  const found = Object.fromEntries(SEARCH_CATEGORIES.map((category) => [category, [] as Match[]])) as Record<SearchCategory, Match[]>;
  if (needle !== '') {
    for (const category of SEARCH_CATEGORIES) {
      if (category === 'expired') continue; // scanned with valid: one pass over the transactions
      const source = plates[CATEGORY_SOURCE[category]];
      for (let i = 0; i < source.keys.length; i++) {
        if (query.locationId !== undefined && source.locationIds[i] !== query.locationId) continue;
        const exact = source.plates[i]!.includes(needle);
        if (!exact && !(similar && source.folded[i]!.includes(foldedNeedle))) continue;
        const expiresAt = source.expiresAt[i]!;
        const into = category === 'valid' && expiresAt <= query.nowSeconds ? 'expired' : category;
        found[into].push({ key: source.keys[i]!, score: score(into, expiresAt, query.nowSeconds), exact });
      }
    }
  }
  const matches = {} as PlateMatches;
  for (const category of SEARCH_CATEGORIES) {
    // Exact matches first, then similar ones, each in rank order; Array.prototype.sort is stable, so ties keep key order.
    const ranked = found[category].sort((a, b) => Number(b.exact) - Number(a.exact) || a.score - b.score);
    const total = ranked.length;
    const exactTotal = ranked.filter((match) => match.exact).length;
    const wanted = query.pages?.[category];
    let page = wanted !== undefined && Number.isFinite(wanted) && wanted > 0 ? Math.floor(wanted) : 0;
    if (total === 0) page = 0;
    else if (page * pageSize >= total) page = Math.ceil(total / pageSize) - 1;
    const keys = ranked.slice(page * pageSize, (page + 1) * pageSize);
    const similarFrom = keys.filter((match) => match.exact).length;
    matches[category] = { total, exactTotal, page, keys: keys.map((match) => match.key), similarFrom };
  }
  return matches;
}

/** Whether two answers give the same totals and the same page keys in every category. */
export function sameMatches(a: PlateMatches, b: PlateMatches): boolean {
  return SEARCH_CATEGORIES.every(
    (category) =>
      a[category].total === b[category].total &&
      a[category].exactTotal === b[category].exactTotal &&
      a[category].keys.length === b[category].keys.length &&
      a[category].keys.every((key, i) => key === b[category].keys[i]),
  );
}
