import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import { quote, walkedQuote } from './quote';
import { MINUTES_PER_DAY, type EventRate, type RateConfig, type RateSet } from './rate-set';
import { TIME_ZONES, offsetChanges, rateConfig, stayIn, validRateSet } from './testing/arbitraries';

// The day tables (src/rates/day-tables.ts) price whole stretches of days in two lookups; the walk of every run
// (`walkedQuote`) is the reference they must agree with to the cent, lines included (docs/rates.md "Speed").

const rateSets = fc.oneof(validRateSet(), validRateSet({ maxBandsPerDay: 20 }), validRateSet({ maxBandsPerDay: 2 }));

/** A stay of up to 30 days with an offset change of its zone somewhere inside it. */
const stayAcrossChange = fc
  .constantFrom(...TIME_ZONES.filter((zone) => offsetChanges(zone).length > 0))
  .chain((timeZone) =>
    fc.record({
      timeZone: fc.constant(timeZone),
      change: fc.constantFrom(...offsetChanges(timeZone)),
      before: fc.integer({ min: 1, max: 20 * MINUTES_PER_DAY }),
      after: fc.integer({ min: 1, max: 10 * MINUTES_PER_DAY }),
      seconds: fc.integer({ min: 0, max: 59 }),
    }),
  )
  .map(({ timeZone, change, before, after, seconds }) => ({
    timeZone,
    arrivalMs: change - before * 60_000 + seconds * 1000,
    stayMs: (before + after) * 60_000,
  }));

/** Up to three events placed inside a stay (wall-clock times near the arrival's), so long stays meet them. */
function eventsWithin(arrivalMs: number, timeZone: string, stayMs: number): fc.Arbitrary<EventRate[]> {
  const wall = new TZDate(arrivalMs, timeZone);
  const localArrival = Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes());
  const stayMinutes = Math.max(1, Math.floor(stayMs / 60_000));
  return fc.array(
    fc
      .tuple(
        fc.integer({ min: -60, max: stayMinutes }),
        fc.integer({ min: 1, max: 2 * MINUTES_PER_DAY }),
        fc.constantFrom<EventRate['pricing']>('per_increment', 'flat'),
        fc.integer({ min: 0, max: 3_000 }),
      )
      .map(([startAt, length, pricing, priceCents]) => ({
        name: 'Match',
        start: new Date(localArrival + startAt * 60_000).toISOString().slice(0, 16),
        end: new Date(localArrival + (startAt + length) * 60_000).toISOString().slice(0, 16),
        pricing,
        priceCents,
      })),
    { maxLength: 3 },
  );
}

function agree(rateSet: RateSet, config: RateConfig, arrivalMs: number, departureMs: number, timeZone: string): void {
  expect(quote(rateSet, config, arrivalMs, departureMs, timeZone)).toEqual(walkedQuote(rateSet, config, arrivalMs, departureMs, timeZone));
}

describe('day tables', { timeout: 60_000 }, () => {
  it('price stays of up to 30 days exactly as the walk does, lines included', () => {
    fc.assert(
      fc.property(rateSets, rateConfig, stayIn(30 * MINUTES_PER_DAY), (rateSet, config, { timeZone, arrivalMs, stayMs }) => {
        agree(rateSet, config, arrivalMs, arrivalMs + stayMs, timeZone);
      }),
      { numRuns: 1_500 },
    );
  });

  it('price short stays (the first day priced from the tables too) exactly as the walk does', () => {
    fc.assert(
      fc.property(rateSets, rateConfig, stayIn(2 * MINUTES_PER_DAY), (rateSet, config, { timeZone, arrivalMs, stayMs }) => {
        agree(rateSet, config, arrivalMs, arrivalMs + stayMs, timeZone);
      }),
      { numRuns: 1_000 },
    );
  });

  it('agree with the walk across offset changes (DST nights, Lord Howe, midnight changes)', () => {
    fc.assert(
      fc.property(rateSets, rateConfig, stayAcrossChange, (rateSet, config, { timeZone, arrivalMs, stayMs }) => {
        agree(rateSet, config, arrivalMs, arrivalMs + stayMs, timeZone);
      }),
      { numRuns: 1_500 },
    );
  });

  it('agree with the walk with events inside long stays', () => {
    fc.assert(
      fc.property(
        validRateSet({ events: false, maxBandsPerDay: 12 }),
        rateConfig,
        fc.oneof(stayIn(30 * MINUTES_PER_DAY), stayAcrossChange).chain((stay) =>
          fc.record({ stay: fc.constant(stay), events: eventsWithin(stay.arrivalMs, stay.timeZone, stay.stayMs) }),
        ),
        (bands, config, { stay: { timeZone, arrivalMs, stayMs }, events }) => {
          agree({ ...bands, events }, config, arrivalMs, arrivalMs + stayMs, timeZone);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('agree with the walk for daily maximums never reached, often reached, and half-day ones', () => {
    fc.assert(
      fc.property(
        validRateSet({ maxBandsPerDay: 20, dailyMax: false }),
        fc.constantFrom(null, 0.3, 0.6, 1.2),
        rateConfig,
        stayIn(30 * MINUTES_PER_DAY),
        (rateSet, share, config, { timeZone, arrivalMs, stayMs }) => {
          // A maximum at a share of the dearest whole day, never below a band's price (what validate requires).
          const dayCharge = rateSet.bands.reduce((sum, band) => sum + band.priceCents * (band.pricing === 'flat' ? 1 : (band.endMinute - band.startMinute) / config.incrementMinutes), 0) / 7;
          const highest = Math.max(0, ...rateSet.bands.map((band) => band.priceCents));
          const dailyMaxCents = share === null ? null : Math.max(highest, Math.round(dayCharge * share));
          agree({ ...rateSet, dailyMaxCents }, config, arrivalMs, arrivalMs + stayMs, timeZone);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
