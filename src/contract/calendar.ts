/**
 * Dates and times as people and the API write them, read strictly: "2026-02-30" or "2027-04-31" is not a date, so it
 * is refused here rather than rolled over into March or May (what `Date` does) or refused by PostgreSQL with a 500.
 * The one reader of such text for the contract (instants), the console's wall-clock inputs (src/ui/zoned-time.ts)
 * and the rate sets' event times (src/rates/rate-set.ts).
 */

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Whether year-month-day (month 1–12) is a day of the Gregorian calendar; year 0 is none (PostgreSQL agrees). */
export function dayExists(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** A real calendar day written "2026-03-01" ("2026-02-30" is not): the lists' and dashboards' day filters. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match !== null && dayExists(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A date and a time of day on some clock, as written: month 1–12. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** "2026-03-02T09:30" → its fields; null unless it is such a text naming a real date and time of day. */
export function readWallClock(text: string): WallClock | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  if (!dayExists(year, month, day) || hour > 23 || minute > 59) return null;
  return { year, month, day, hour, minute };
}

/** Epoch ms of a date and time read as UTC (any year: `Date.UTC` would take years 0–99 for 1900–1999). */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, ms);
  return at.getTime();
}

/** Offsets of real zones run from −12:00 to +14:00. */
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * An instant with its offset, "2026-03-02T09:00-06:00" or "2026-03-02T15:00:00.000Z" (seconds and milliseconds
 * optional) → epoch ms; null unless the date is on the calendar, the time on the clock and the offset a zone's.
 */
export function readInstant(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = Number(match[6] ?? 0);
  const ms = Number((match[7] ?? '0').padEnd(3, '0'));
  if (!dayExists(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = match[8] ? (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10])) : 0;
  if (Number(match[10] ?? 0) > 59 || Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) return null;
  return utcMs(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
}

export const isInstant = (text: string) => readInstant(text) !== null;
