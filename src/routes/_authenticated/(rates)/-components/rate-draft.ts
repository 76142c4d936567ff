import { centsToDollarsText, dollarsProblem, dollarsToCents } from '../../../../contract/money-text';
import { clockTime, WEEKDAY_NAMES, type EventRate, type Pricing, type RateBand, type RateSet } from '../../../../rates/rate-set';
import { MAX_PRICE_CENTS } from '../../../../rates/validate';

/**
 * A rate set as the editor holds it. A row is one band across the days it applies to ("Mon–Fri 06:00–18:00 $2.00"):
 * a week is usually a handful of rows, not a band per weekday, so a weekday price change is one edit. The stored
 * shape stays one band per day: `draftOf` groups the set's bands into rows, `rateSetOf` expands the rows back.
 * Every field is kept as typed, so nothing is lost or reformatted while it is being typed.
 */
export interface BandRow {
  /** Stable across edits, for React's keys and the row's control ids. */
  key: number;
  /** Weekdays the band applies to, Monday (0) to Sunday (6), ascending. */
  days: number[];
  start: string;
  end: string;
  pricing: Pricing;
  /** Dollars as typed ("2", "2.50"). */
  price: string;
}
export interface RateDraft {
  rows: BandRow[];
  dailyMax: string;
  maxStayMinutes: string;
  /** Kept as they are: the editor changes bands and maximums, not events. */
  events: EventRate[];
}

let nextKey = 1;
export const newRowKey = () => nextKey++;

/**
 * The bands grouped into rows: bands alike in every field but the day share a row. A second band alike on a day the
 * row already has (a duplicate, which `validate` calls an overlap) starts another row, so no band is lost. Rows are
 * in the order of their first day, then their start.
 */
export function groupBands(bands: readonly RateBand[]): { days: number[]; band: RateBand }[] {
  const groups: { days: number[]; band: RateBand }[] = [];
  for (const band of bands) {
    const alike = groups.find(
      (group) =>
        group.band.startMinute === band.startMinute &&
        group.band.endMinute === band.endMinute &&
        group.band.pricing === band.pricing &&
        group.band.priceCents === band.priceCents &&
        !group.days.includes(band.day),
    );
    if (alike) alike.days.push(band.day);
    else groups.push({ days: [band.day], band });
  }
  for (const group of groups) group.days.sort((a, b) => a - b);
  return groups.sort((a, b) => a.days[0]! - b.days[0]! || a.band.startMinute - b.band.startMinute || a.band.endMinute - b.band.endMinute);
}

export function draftOf(rateSet: RateSet): RateDraft {
  return {
    rows: groupBands(rateSet.bands).map(({ days, band }) => ({
      key: newRowKey(),
      days,
      start: clockTime(band.startMinute),
      end: clockTime(band.endMinute),
      pricing: band.pricing,
      price: centsToDollarsText(band.priceCents),
    })),
    dailyMax: rateSet.dailyMaxCents === null ? '' : centsToDollarsText(rateSet.dailyMaxCents),
    maxStayMinutes: rateSet.maxStayMinutes === null ? '' : String(rateSet.maxStayMinutes),
    events: rateSet.events,
  };
}

/** "08:30" → 510; "24:00" → 1440; NaN otherwise. */
export function minuteOf(text: string): number {
  const match = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!match) return Number.NaN;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return Number.NaN;
  return hours * 60 + minutes;
}

const PRICE = { label: 'price', maxCents: MAX_PRICE_CENTS, minCents: 0 };
const DAILY_MAX = { label: 'daily maximum', maxCents: MAX_PRICE_CENTS, minCents: 0 };

/** What is wrong with a row's own fields, in words, before the rate set as a whole is checked. */
export interface RowFieldProblems {
  days?: string;
  start?: string;
  end?: string;
  price?: string;
}

export function rowFieldProblems(row: BandRow): RowFieldProblems {
  const problems: RowFieldProblems = {};
  if (row.days.length === 0) problems.days = 'Choose at least one day.';
  const start = minuteOf(row.start);
  if (Number.isNaN(start) || start >= 1440) problems.start = 'Enter a start from 00:00 to 23:59, like 06:00.';
  const end = minuteOf(row.end);
  if (Number.isNaN(end) || end === 0) problems.end = 'Enter an end from 00:01 to 24:00 (midnight at the end of the day).';
  else if (!problems.start && end <= start) problems.end = 'The end must be after the start; a band past midnight is two bands, one on each day.';
  const price = dollarsProblem(row.price, PRICE);
  if (price) problems.price = price;
  return problems;
}

export function dailyMaxProblem(text: string): string | null {
  return text.trim() === '' ? null : dollarsProblem(text, DAILY_MAX);
}

/** Which row and day each band of `rateSetOf(draft)` came from, in the same order as its bands. */
export interface BandOrigin {
  rowKey: number;
  day: number;
}

/** The rows expanded to one band per day, sorted by day and start (the stored shape), with where each came from. */
export function expandRows(rows: readonly BandRow[]): { bands: RateBand[]; origins: BandOrigin[] } {
  const expanded = rows.flatMap((row) => {
    const startMinute = minuteOf(row.start);
    const endMinute = minuteOf(row.end);
    const priceCents = dollarsToCents(row.price) ?? Number.NaN;
    return row.days.map((day) => ({ origin: { rowKey: row.key, day }, band: { day, startMinute, endMinute, pricing: row.pricing, priceCents } }));
  });
  expanded.sort((a, b) => a.band.day - b.band.day || a.band.startMinute - b.band.startMinute);
  return { bands: expanded.map((entry) => entry.band), origins: expanded.map((entry) => entry.origin) };
}

export function rateSetOf(draft: RateDraft): RateSet {
  return {
    bands: expandRows(draft.rows).bands,
    dailyMaxCents: draft.dailyMax.trim() === '' ? null : (dollarsToCents(draft.dailyMax) ?? Number.NaN),
    maxStayMinutes: draft.maxStayMinutes.trim() === '' ? null : /^\s*\d{1,6}\s*$/.test(draft.maxStayMinutes) ? Number(draft.maxStayMinutes) : Number.NaN,
    events: draft.events,
  };
}

/** Two rate sets price alike: the same bands (in any order), maximums and events. */
export function sameRateSet(a: RateSet, b: RateSet): boolean {
  const bandKey = (band: RateBand) => `${band.day} ${band.startMinute} ${band.endMinute} ${band.pricing} ${band.priceCents}`;
  const bandsOf = (set: RateSet) => set.bands.map(bandKey).sort().join('|');
  return (
    bandsOf(a) === bandsOf(b) &&
    a.dailyMaxCents === b.dailyMaxCents &&
    a.maxStayMinutes === b.maxStayMinutes &&
    JSON.stringify(a.events) === JSON.stringify(b.events)
  );
}

/** Days as a person reads them: runs of three or more as a range ("Mon–Fri"), others listed ("Sat, Sun"). */
export function daysLabel(days: readonly number[], names: readonly string[] = SHORT_DAY_NAMES): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${names[sorted[i]!]}–${names[sorted[j]!]}`);
    else for (let k = i; k <= j; k++) parts.push(names[sorted[k]!]!);
    i = j + 1;
  }
  return parts.join(', ');
}

export const SHORT_DAY_NAMES = WEEKDAY_NAMES.map((name) => name.slice(0, 3));

/** Where a new set starts when a location has none: every day one band, free. */
export const EMPTY_RATE_SET: RateSet = {
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment', priceCents: 0 })),
  dailyMaxCents: null,
  maxStayMinutes: null,
  events: [],
};
