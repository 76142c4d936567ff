import type { SettledQuery, SettledRange, SettledSearch } from '../../../../contract/dashboard-queries';

/**
 * The settled dashboard's ranges. Named ranges are resolved by the server in the locations' own zones, each ending
 * on the last complete day (src/contract/settled-ranges.ts); the screen shows the days it answered with.
 */
export const RANGE_LABELS: Record<SettledRange, string> = {
  yesterday: 'Yesterday',
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  custom: 'Custom',
};

/** The API query of the URL's search: a named range as its name, a custom one as its days (without both: last 7). */
export function settledQueryOf(search: SettledSearch): SettledQuery {
  const location = search.locationId ? { locationId: search.locationId } : {};
  const range = search.range ?? 'last7';
  if (range !== 'custom') return { range, ...location };
  if (search.from && search.to) return { from: search.from, to: search.to, ...location };
  return { range: 'last7', ...location };
}

const monthDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const fullDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
const at = (day: string) => new Date(`${day}T00:00:00Z`);

/** "Nov 1 – Nov 28, 2026"; "Dec 1, 2025 – Jan 15, 2026" across a new year; "Nov 27, 2026" for one day. */
export function rangeInWords(from: string, to: string): string {
  if (from === to) return fullDay.format(at(to));
  const start = from.slice(0, 4) === to.slice(0, 4) ? monthDay.format(at(from)) : fullDay.format(at(from));
  return `${start} – ${fullDay.format(at(to))}`;
}
