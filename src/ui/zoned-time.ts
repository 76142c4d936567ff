import { TZDate } from '@date-fns/tz';
import { readWallClock } from '../contract/calendar';

/**
 * Times on a location's clock. Staff think in the local time of the place (a promo code starts at midnight in
 * Chicago, not at 06:00 UTC), so every time a person types or reads is on the clock of the record's location — or,
 * for records of several locations or none, the viewer's own. @date-fns/tz does the zone arithmetic (right across
 * DST, where a quick Intl-only helper is not: ../shared/guides/admin-stack.md).
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** The browser's zone: the clock for records tied to no location, or to several. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone to show a record in: its locations' zone when they share one, else the viewer's. */
export function zoneOf(zones: readonly string[]): string {
  const distinct = new Set(zones);
  return distinct.size === 1 ? zones[0]! : viewerTimeZone();
}

/** "2026-03-02T09:30" on the zone's wall clock → epoch ms; null when the text is not such a time. */
export function wallClockToMs(value: string, timeZone: string): number | null {
  // Strictly, as the API reads its instants: April 31 is not a date (src/contract/calendar.ts).
  const clock = readWallClock(value);
  if (!clock) return null;
  const at = new TZDate(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, timeZone);
  return Number.isNaN(at.getTime()) ? null : at.getTime();
}

/** Epoch ms → "2026-03-02T09:30" on the zone's wall clock (what an `<input type="datetime-local">` holds). */
export function msToWallClock(ms: number, timeZone: string): string {
  const at = new TZDate(ms, timeZone);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The calendar date ("2026-11-29") it is in the zone at `ms`. */
export function calendarDateIn(timeZone: string, ms = Date.now()): string {
  return msToWallClock(ms, timeZone).slice(0, 10);
}

/** The zone's short name at that moment: "CST", "EDT", or an offset ("GMT+5:30") where it has none in English. */
export function zoneAbbreviation(timeZone: string, ms = Date.now()): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(ms);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
