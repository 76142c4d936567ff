import { SEARCH_CATEGORIES, type PlateRow, type PlateSearchResult, type SearchCategory } from './enforcement-worker-api';

/**
 * What an answer's first paint needs, shared by the screen (which renders it) and the worker (which reads answers
 * ahead and sends only this part of them): the rows the first paint shows, and the rows the verdict line speaks about.
 */

/** Characters read ahead after an answer: what can follow in a plate (the field upper-cases as the officer types). */
export const PLATE_SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * PLATE_SYMBOLS, likeliest next first: by how often each follows `text` in the answer's exact matches (the plates the
 * officer is probably narrowing down to), the rest in their usual order. A read-ahead cut short still has these.
 */
export function symbolsByLikelihood(text: string, result: PlateSearchResult): string {
  const counts = new Map<string, number>();
  for (const category of SEARCH_CATEGORIES) {
    for (const row of result[category].rows) {
      if (row.match !== 'exact') continue;
      const plate = row.license_plate.toUpperCase();
      for (let at = plate.indexOf(text); at !== -1 && at + text.length < plate.length; at = plate.indexOf(text, at + 1)) {
        const next = plate[at + text.length]!;
        counts.set(next, (counts.get(next) ?? 0) + 1);
      }
    }
  }
  const order = [...PLATE_SYMBOLS];
  // Array.prototype.sort is stable: equal counts keep PLATE_SYMBOLS' order.
  order.sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  return order.join('');
}

/** How many rows each category shows in a first paint of `budget` rows: the budget handed out in category order. */
export function firstPaintLimits(result: PlateSearchResult, budget: number): Record<SearchCategory, number> {
  return firstPaintShares((category) => result[category].rows.length, budget);
}

/** The same rule over counts: `budget` handed out in category order, each category at most `available` of it. */
export function firstPaintShares(available: (category: SearchCategory) => number, budget: number): Record<SearchCategory, number> {
  let left = budget;
  const limits = {} as Record<SearchCategory, number>;
  for (const category of SEARCH_CATEGORIES) {
    limits[category] = Math.min(available(category), left);
    left -= limits[category];
  }
  return limits;
}

/**
 * The rows the verdict speaks about: those whose plate is exactly what was typed; else the exact matches, when they
 * are all on these pages and all one plate; else none (several plates contain the text). `query` is upper case.
 */
export function verdictRows(query: string, result: PlateSearchResult): PlateRow[] {
  let exactTotal = 0;
  const exact: PlateRow[] = [];
  for (const category of SEARCH_CATEGORIES) {
    exactTotal += result[category].exactTotal;
    for (const row of result[category].rows) if (row.match === 'exact') exact.push(row);
  }
  return verdictPick(query, exactTotal, exact, (row) => row.license_plate.toUpperCase());
}

/**
 * The same rule over any items with a plate (upper case): `exact` are the exact matches on the pages, `exactTotal`
 * how many there are in all. The worker's read-ahead uses it with the index's plates, before reading any row.
 */
export function verdictPick<T>(query: string, exactTotal: number, exact: readonly T[], plateOf: (item: T) => string): T[] {
  const typed = exact.filter((item) => plateOf(item) === query);
  if (typed.length > 0) return typed;
  const plates = new Set(exact.map(plateOf));
  return plates.size === 1 && exactTotal === exact.length ? [...exact] : [];
}

/**
 * `result` cut down to what its first paint of `budget` rows shows, plus the verdict's rows, in their order: the
 * verdict and the first paint of the slice are those of the whole answer. The slice says nothing about the rows
 * past them, so it is never rendered in full (the answer itself follows).
 */
export function firstPaintSlice(query: string, result: PlateSearchResult, budget: number): PlateSearchResult {
  const limits = firstPaintLimits(result, budget);
  const told = new Set(verdictRows(query, result));
  const slice = {} as PlateSearchResult;
  for (const category of SEARCH_CATEGORIES) {
    const { rows, ...counts } = result[category];
    slice[category] = { ...counts, rows: rows.filter((row, i) => i < limits[category] || told.has(row)) };
  }
  return slice;
}
