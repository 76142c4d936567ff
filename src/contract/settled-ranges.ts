import type { SettledPreset } from './dashboard-queries';

/**
 * The settled dashboard's days. Settlement days are each location's own calendar day, so "today" is a date in the
 * locations' zones, never the browser's or the server's: at 04:34 UTC on Nov 29 it is still Nov 28 in Chicago, and
 * "Yesterday" there is Nov 27.
 *
 * Decision (docs/dashboards.md): over several locations, "today" is the earliest date any of them is on, so a day is
 * shown as complete only once it is over at every location. Every named range ends on the last complete day
 * (yesterday); "This month" is the month of that day, from its 1st. The server resolves a named range with this code
 * (it knows the zones and the time), and the console shows the days it answered with.
 */

/** The longest range one request may ask for (a year and a leap day); a longer one is refused with a 400. */
export const MAX_SETTLED_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "2026-03-01" plus `days` calendar days (UTC arithmetic on dates: no DST in the way). */
export function addDays(day: string, days: number): string {
  return dayOf(dayMs(day) + days * DAY_MS);
}

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date ("2026-11-28") it is in `timeZone` at `now`. */
function dateIn(timeZone: string, now: number): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(now);
}

/** Today at the locations: the earliest date among their zones (UTC's when there are none). */
export function settledToday(zones: readonly string[], now: number): string {
  const dates = (zones.length === 0 ? ['UTC'] : zones).map((zone) => dateIn(zone, now));
  return dates.reduce((earliest, date) => (date < earliest ? date : earliest));
}

/** A named range as days, ending on the last complete day (the day before `today`), except "Last month". */
export function presetDays(preset: SettledPreset, today: string): { from: string; to: string } {
  const yesterday = addDays(today, -1);
  switch (preset) {
    case 'yesterday':
      return { from: yesterday, to: yesterday };
    case 'last7':
      return { from: addDays(yesterday, -6), to: yesterday };
    case 'last30':
      return { from: addDays(yesterday, -29), to: yesterday };
    case 'thisMonth':
      return { from: `${yesterday.slice(0, 7)}-01`, to: yesterday };
    case 'lastMonth': {
      const firstOfThisMonth = `${today.slice(0, 7)}-01`;
      const lastDay = addDays(firstOfThisMonth, -1);
      return { from: `${lastDay.slice(0, 7)}-01`, to: lastDay };
    }
  }
}

/** Why a custom range cannot be asked for, in words for the form and the 400; null when it can. */
export function settledRangeProblem(from: string, to: string): string | null {
  if (from > to) return 'The first day must not be after the last.';
  if (daysInRange(from, to) > MAX_SETTLED_RANGE_DAYS) return `The range may span at most ${MAX_SETTLED_RANGE_DAYS} days.`;
  return null;
}
