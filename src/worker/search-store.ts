import { SEARCH_CATEGORIES, type PlateRow, type PlateSearchRequest, type PlateSearchResult, type SearchCategory } from './enforcement-worker-api';
import { firstPaintShares, firstPaintSlice, verdictPick } from './first-paint';
import type { IndexSource, PlateMatches } from './plate-index';
import { SOURCE_OF_TYPE } from './store';
import type { LocalStore, RowRequest } from './store-local';
import { toPlateRow } from './store-records';

/** Searches of the local store: the index's keys for the request's pages, then their rows. */

export function emptySearchResult(): PlateSearchResult {
  const result = {} as PlateSearchResult;
  for (const category of SEARCH_CATEGORIES) result[category] = { total: 0, exactTotal: 0, page: 0, rows: [] };
  return result;
}

const sourceOf = (category: SearchCategory): IndexSource =>
  category === 'valid' || category === 'expired' ? SOURCE_OF_TYPE.valid : SOURCE_OF_TYPE[category];

function matchesFor(local: LocalStore, request: PlateSearchRequest): PlateMatches {
  return local.index.match({
    text: request.text,
    locationId: request.locationId,
    nowSeconds: Math.floor(request.now / 1000),
    pages: request.pages,
    similar: request.similar ?? false,
  });
}

/** One search: the index's keys for the request's pages, then their rows. */
export async function searchStore(local: LocalStore, request: PlateSearchRequest): Promise<PlateSearchResult> {
  const matches = matchesFor(local, request);
  const wanted: RowRequest[] = [];
  for (const category of SEARCH_CATEGORIES) {
    for (const key of matches[category].keys) wanted.push({ source: sourceOf(category), key });
  }
  const rows = await local.readRows(wanted);
  const result = emptySearchResult();
  let at = 0;
  for (const category of SEARCH_CATEGORIES) {
    const { total, exactTotal, page, keys, similarFrom } = matches[category];
    const found = result[category];
    found.total = total;
    found.exactTotal = exactTotal;
    found.page = page;
    for (let i = 0; i < keys.length; i++) {
      const row = rows[at++];
      if (row !== undefined) found.rows.push(toPlateRow(category, row, i < similarFrom ? 'exact' : 'similar'));
    }
  }
  // The index holds no parker status: within the page, exact matches still first, active parkers before others.
  result.monthly_parkers.rows.sort((a, b) => parkerRank(a) - parkerRank(b));
  return result;
}

/** Within a page of monthly parkers: exact before similar, then "Active" parkers before any other status. */
function parkerRank(row: PlateRow): number {
  const inactive = row.category === 'monthly_parkers' && row.parkerStatus.toLowerCase() !== 'active' ? 1 : 0;
  return (row.match === 'similar' ? 2 : 0) + inactive;
}

/**
 * `firstPaintSlice(request.text, await searchStore(local, request), budget)`, reading only the rows that slice keeps:
 * the first `budget` in category order, those the verdict speaks about (told apart by their plates in the index), and
 * the monthly parkers' page (ordered by each parker's status, which only the rows hold). The read-ahead asks this for
 * every likely next character, and on a phone each row is a read of IndexedDB's files: ~5 rows instead of up to 50.
 * Should a row be missing (the store changed under the index), the whole answer is read and cut instead.
 */
export async function searchFirstPaint(local: LocalStore, request: PlateSearchRequest, budget: number): Promise<PlateSearchResult> {
  const matches = matchesFor(local, request);
  const whole = async () => firstPaintSlice(request.text, await searchStore(local, request), budget);
  const told = verdictKeys(local, request.text, matches);
  if (told === null) return whole();

  const limits = firstPaintShares((category) => matches[category].keys.length, budget);
  const wanted: RowRequest[] = [];
  const at: { category: SearchCategory; i: number }[] = [];
  for (const category of SEARCH_CATEGORIES) {
    const { keys } = matches[category];
    const source = sourceOf(category);
    for (let i = 0; i < keys.length; i++) {
      if (category !== 'monthly_parkers' && i >= limits[category] && !told.has(`${category}:${i}`)) continue;
      wanted.push({ source, key: keys[i]! });
      at.push({ category, i });
    }
  }
  const rows = await local.readRows(wanted);
  if (rows.some((row) => row === undefined)) return whole();

  const slice = emptySearchResult();
  const toldRows = new Set<PlateRow>();
  for (const category of SEARCH_CATEGORIES) {
    const { total, exactTotal, page } = matches[category];
    Object.assign(slice[category], { total, exactTotal, page });
  }
  rows.forEach((row, n) => {
    const { category, i } = at[n]!;
    const plateRow = toPlateRow(category, row!, i < matches[category].similarFrom ? 'exact' : 'similar');
    if (told.has(`${category}:${i}`)) toldRows.add(plateRow);
    slice[category].rows.push(plateRow);
  });
  const parkers = slice.monthly_parkers;
  parkers.rows.sort((a, b) => parkerRank(a) - parkerRank(b));
  parkers.rows = parkers.rows.filter((row, i) => i < limits.monthly_parkers || toldRows.has(row));
  return slice;
}

/**
 * The verdict's rows as `category:index` on the pages (first-paint.ts verdictRows, from the index's plates instead of
 * the rows). Null when a key has no plate in the index.
 */
function verdictKeys(local: LocalStore, query: string, matches: PlateMatches): Set<string> | null {
  let exactTotal = 0;
  const exact: { at: string; plate: string }[] = [];
  for (const category of SEARCH_CATEGORIES) {
    const { keys, similarFrom } = matches[category];
    exactTotal += matches[category].exactTotal;
    for (let i = 0; i < similarFrom; i++) {
      const plate = local.index.plateOf(sourceOf(category), keys[i]!);
      if (plate === undefined) return null;
      exact.push({ at: `${category}:${i}`, plate });
    }
  }
  return new Set(verdictPick(query, exactTotal, exact, (entry) => entry.plate).map((entry) => entry.at));
}
