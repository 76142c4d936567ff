import { TZDate } from '@date-fns/tz';
import { incrementsOf, taxOf } from '../quote';
import { wallClockMinute, type RateConfig, type RateSet } from '../rate-set';

/**
 * The pricing rules of docs/rates.md written the slow, obvious way for tests: one increment at a time, the wall
 * clock of each read through @date-fns/tz, visits and days kept in sets and maps. The engine must agree with it.
 */
export function referenceQuote(
  rateSet: RateSet,
  config: RateConfig,
  arrivalMs: number,
  departureMs: number,
  timeZone: string,
): { subtotalCents: number; amountCents: number } | null {
  const minutes = Math.ceil((departureMs - arrivalMs) / 60_000);
  if (minutes <= 0) return null;
  if (rateSet.maxStayMinutes !== null && minutes > rateSet.maxStayMinutes) return null;
  if (minutes <= config.graceMinutes) return { subtotalCents: 0, amountCents: 0 };
  const count = incrementsOf(minutes, config);
  const arrival = Math.floor(arrivalMs / 60_000);
  const events = rateSet.events
    .map((event, index) => ({ event, index, start: wallClockMinute(event.start), end: wallClockMinute(event.end) }))
    .filter(({ start, end }) => start < end);
  const days = new Map<number, number>();
  const flatVisits = new Set<string>();
  const eventsCharged = new Set<number>();
  let latestDate = '';
  let calendarDay = -1;
  for (let k = 0; k < count; k++) {
    const start = arrival + k * config.incrementMinutes;
    const wall = new TZDate(start * 60_000, timeZone);
    const date = `${wall.getFullYear()}-${String(wall.getMonth() + 1).padStart(2, '0')}-${String(wall.getDate()).padStart(2, '0')}`;
    const wallMinute = Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes()) / 60_000;
    const minuteOfDay = wall.getHours() * 60 + wall.getMinutes();
    const weekday = (wall.getDay() + 6) % 7;
    if (date > latestDate) {
      latestDate = date;
      calendarDay++;
    }
    const day = config.dailyMaximum === 'rolling_24h' ? Math.floor((k * config.incrementMinutes) / 1440) : calendarDay;
    let charge = 0;
    const inForce = events
      .filter((event) => event.start <= wallMinute && wallMinute < event.end)
      .sort((a, b) => a.start - b.start || a.index - b.index)[0];
    if (inForce) {
      if (inForce.event.pricing === 'per_increment') charge = inForce.event.priceCents;
      else if (!eventsCharged.has(inForce.index)) {
        eventsCharged.add(inForce.index);
        charge = inForce.event.priceCents;
      }
    } else {
      const bandIndex = rateSet.bands.findIndex(
        (band) => band.day === weekday && band.startMinute <= minuteOfDay && minuteOfDay < band.endMinute,
      );
      const band = rateSet.bands[bandIndex];
      if (band) {
        if (band.pricing === 'per_increment') charge = band.priceCents;
        else if (!flatVisits.has(`${date}|${bandIndex}`)) {
          flatVisits.add(`${date}|${bandIndex}`);
          charge = band.priceCents;
        }
      }
    }
    days.set(day, (days.get(day) ?? 0) + charge);
  }
  let subtotalCents = 0;
  for (const sum of days.values()) {
    subtotalCents += rateSet.dailyMaxCents === null ? sum : Math.min(sum, rateSet.dailyMaxCents);
  }
  return { subtotalCents, amountCents: subtotalCents + taxOf(subtotalCents, config.taxBasisPoints) };
}
