import type { SettledQuery, SettledRange, SettledSearch } from '../../../contract/dashboard-queries';

/**
 * The named ranges in days. Settled days are calendar days (each location's own), so "yesterday" is the day before
 * today's date where the user is: the same calendar day for every location.
 */
export const RANGE_LABELS: Record<SettledRange, string> = {
  yesterday: 'Yesterday',
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  custom: 'Custom',
};

const iso = (date: Date) => date.toISOString().slice(0, 10);
/** Calendar arithmetic on UTC dates: no DST in the way. */
const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

/** Today's calendar date where the browser is. */
export function localToday(now = new Date()): Date {
  return utcDay(now.getFullYear(), now.getMonth(), now.getDate());
}

/** The search's days (named range resolved against `today`), and the location; custom without dates is the last 7. */
export function settledQueryOf(search: SettledSearch, today = localToday()): SettledQuery & { from: string; to: string } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const d = today.getUTCDate();
  const location = search.locationId ? { locationId: search.locationId } : {};
  switch (search.range ?? 'last7') {
    case 'yesterday':
      return { from: iso(utcDay(y, m, d - 1)), to: iso(utcDay(y, m, d - 1)), ...location };
    case 'last30':
      return { from: iso(utcDay(y, m, d - 30)), to: iso(utcDay(y, m, d - 1)), ...location };
    case 'thisMonth':
      return { from: iso(utcDay(y, m, 1)), to: iso(today), ...location };
    case 'lastMonth':
      return { from: iso(utcDay(y, m - 1, 1)), to: iso(utcDay(y, m, 0)), ...location };
    case 'custom':
      if (search.from && search.to) return { from: search.from, to: search.to, ...location };
      return { from: iso(utcDay(y, m, d - 7)), to: iso(utcDay(y, m, d - 1)), ...location };
    default:
      return { from: iso(utcDay(y, m, d - 7)), to: iso(utcDay(y, m, d - 1)), ...location };
  }
}
