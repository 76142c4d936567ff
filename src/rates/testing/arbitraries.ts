import * as fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import {
  DAILY_MAXIMUM_MODES,
  INCREMENT_CHOICES,
  MINUTES_PER_DAY,
  ROUNDINGS,
  type EventRate,
  type Pricing,
  type RateBand,
  type RateConfig,
  type RateSet,
} from '../rate-set';

/** Zones with the awkward cases: 30-minute DST (Lord Howe), midnight changes (Santiago, Havana), no DST, +5:30. */
export const TIME_ZONES = [
  'America/Chicago',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Prague',
  'Australia/Lord_Howe',
  'America/Santiago',
  'America/Havana',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'UTC',
] as const;

const pricing: fc.Arbitrary<Pricing> = fc.constantFrom<Pricing>('per_increment', 'per_increment', 'per_increment', 'flat');

/** One day cut into 1–maxBands bands that cover it exactly, listed in a shuffled order. */
function dayBands(day: number, maxBands: number): fc.Arbitrary<RateBand[]> {
  return fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 1, max: MINUTES_PER_DAY - 1 }), { maxLength: maxBands - 1 }),
      fc.array(fc.tuple(pricing, fc.integer({ min: 0, max: 2_000 })), { minLength: maxBands, maxLength: maxBands }),
    )
    .map(([cuts, prices]) => {
      const edges = [0, ...cuts.sort((a, b) => a - b), MINUTES_PER_DAY];
      return edges.slice(1).map((end, index) => ({
        day,
        startMinute: edges[index] as number,
        endMinute: end,
        pricing: prices[index]![0],
        priceCents: prices[index]![1],
      }));
    });
}

/** A wall-clock time in 2026–2027 as the rate set writes it. */
const wallClock = fc.integer({ min: 0, max: 2 * 365 * MINUTES_PER_DAY }).map((offset) => {
  const at = new Date(Date.UTC(2026, 0, 1) + offset * 60_000);
  return at.toISOString().slice(0, 16);
});

const eventRate: fc.Arbitrary<EventRate> = fc
  .tuple(wallClock, fc.integer({ min: 1, max: 3 * MINUTES_PER_DAY }), pricing, fc.integer({ min: 0, max: 3_000 }))
  .map(([start, length, eventPricing, priceCents]) => ({
    name: 'Game day',
    start,
    end: new Date(Date.parse(`${start}Z`) + length * 60_000).toISOString().slice(0, 16),
    pricing: eventPricing,
    priceCents,
  }));

/** Rate sets `validate` accepts (events may overlap: the engine's rule for that is tested too). */
export function validRateSet(options: { maxBandsPerDay?: number; events?: boolean; dailyMax?: boolean } = {}): fc.Arbitrary<RateSet> {
  const maxBands = options.maxBandsPerDay ?? 6;
  return fc
    .tuple(
      fc.tuple(...[0, 1, 2, 3, 4, 5, 6].map((day) => dayBands(day, maxBands))),
      options.events === false ? fc.constant<EventRate[]>([]) : fc.array(eventRate, { maxLength: 3 }),
      options.dailyMax === false ? fc.constant(null) : fc.option(fc.integer({ min: 0, max: 4_000 }), { nil: null }),
    )
    .chain(([days, events, dailyMax]) =>
      fc.shuffledSubarray(days.flat(), { minLength: days.flat().length }).map((bands) => {
        const highest = Math.max(0, ...bands.map((band) => band.priceCents), ...events.map((event) => event.priceCents));
        return {
          bands,
          events,
          dailyMaxCents: dailyMax === null ? null : highest + dailyMax,
          maxStayMinutes: null,
        };
      }),
    );
}

export const rateConfig: fc.Arbitrary<RateConfig> = fc.record({
  currency: fc.constant('USD'),
  incrementMinutes: fc.constantFrom(...INCREMENT_CHOICES),
  rounding: fc.constantFrom(...ROUNDINGS),
  graceMinutes: fc.constantFrom(0, 0, 5, 10),
  taxBasisPoints: fc.constantFrom(0, 875, 1025, 2250),
  dailyMaximum: fc.constantFrom(...DAILY_MAXIMUM_MODES),
});

/** UTC instants of every offset change of a zone in 2026–2027, found once with @date-fns/tz. */
const changesByZone = new Map<string, number[]>();
export function offsetChanges(timeZone: string): number[] {
  let changes = changesByZone.get(timeZone);
  if (!changes) {
    changes = [];
    const offsetAt = (ms: number) => new TZDate(ms, timeZone).getTimezoneOffset();
    const end = Date.UTC(2028, 0, 1);
    for (let ms = Date.UTC(2026, 0, 1); ms < end; ms += 3_600_000) {
      if (offsetAt(ms) !== offsetAt(ms + 3_600_000)) {
        let low = ms;
        let high = ms + 3_600_000;
        while (high - low > 60_000) {
          const middle = low + Math.floor((high - low) / 120_000) * 60_000;
          if (offsetAt(middle) === offsetAt(low)) low = middle;
          else high = middle;
        }
        changes.push(high);
      }
    }
    changesByZone.set(timeZone, changes);
  }
  return changes;
}

/** An arrival (epoch ms, whole minutes) in 2026–2027, half the time within a day of an offset change. */
export function arrivalIn(timeZone: string): fc.Arbitrary<number> {
  const changes = offsetChanges(timeZone);
  const anywhere = fc.integer({ min: 0, max: 2 * 365 * MINUTES_PER_DAY }).map((minute) => Date.UTC(2026, 0, 1) + minute * 60_000);
  if (changes.length === 0) return anywhere;
  const nearChange = fc
    .tuple(fc.constantFrom(...changes), fc.integer({ min: -MINUTES_PER_DAY, max: MINUTES_PER_DAY }))
    .map(([change, minutes]) => change + minutes * 60_000);
  return fc.oneof(anywhere, nearChange);
}

/** A zone, an arrival in it, and a stay of 1 minute up to `maxMinutes`, with a few seconds either side. */
export function stayIn(maxMinutes: number) {
  return fc
    .constantFrom(...TIME_ZONES)
    .chain((timeZone) =>
      fc.record({
        timeZone: fc.constant(timeZone),
        arrivalMs: fc.tuple(arrivalIn(timeZone), fc.integer({ min: 0, max: 59_999 })).map(([at, ms]) => at + ms),
        stayMs: fc.integer({ min: 1, max: maxMinutes * 60_000 }),
      }),
    );
}
