import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { TZDate } from '@date-fns/tz';
import { quote, taxOf, walkedQuote, type Quote } from './quote';
import { MINUTES_PER_DAY, type RateConfig, type RateSet } from './rate-set';
import { validate } from './validate';
import { referenceQuote } from './testing/reference-quote';
import { TIME_ZONES, arrivalIn, offsetChanges, rateConfig, stayIn, validRateSet } from './testing/arbitraries';

// Invariants listed in docs/rates.md "Invariants"; each test names its number there.
const RUNS = 2_000;

function amountOf(result: Quote): number {
  if (!result.ok) throw new Error(result.message);
  return result.amountCents;
}
function subtotalOf(result: Quote): number {
  if (!result.ok) throw new Error(result.message);
  return result.subtotalCents;
}

const flatDay = (priceCents: number): RateSet => ({
  bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: MINUTES_PER_DAY, pricing: 'per_increment', priceCents })),
  dailyMaxCents: null,
  maxStayMinutes: null,
  events: [],
});
const hourly: RateConfig = {
  currency: 'USD',
  incrementMinutes: 60,
  rounding: 'up',
  graceMinutes: 0,
  taxBasisPoints: 0,
  dailyMaximum: 'rolling_24h',
};

describe('quote', { timeout: 60_000 }, () => {
  it('the generated rate sets are valid ones', () => {
    fc.assert(fc.property(validRateSet({ maxBandsPerDay: 20, events: false }), (rateSet) => {
      expect(validate(rateSet)).toEqual([]);
    }), { numRuns: 200 });
  });

  it('(1) never decreases when the stay grows', () => {
    fc.assert(
      fc.property(validRateSet(), rateConfig, stayIn(30 * MINUTES_PER_DAY), fc.integer({ min: 1, max: 3 * MINUTES_PER_DAY }),
        (rateSet, config, { timeZone, arrivalMs, stayMs }, more) => {
          const shorter = amountOf(quote(rateSet, config, arrivalMs, arrivalMs + stayMs, timeZone));
          const longer = amountOf(quote(rateSet, config, arrivalMs, arrivalMs + stayMs + more * 60_000, timeZone));
          expect(longer).toBeGreaterThanOrEqual(shorter);
        }),
      { numRuns: RUNS },
    );
  });

  it('(2) never exceeds the daily maximum times the days started', () => {
    fc.assert(
      fc.property(validRateSet(), rateConfig, stayIn(30 * MINUTES_PER_DAY), (rateSet, config, { timeZone, arrivalMs, stayMs }) => {
        fc.pre(rateSet.dailyMaxCents !== null);
        const departureMs = arrivalMs + stayMs;
        const minutes = Math.ceil(stayMs / 60_000);
        let days: number;
        if (config.dailyMaximum === 'rolling_24h') days = Math.ceil(minutes / MINUTES_PER_DAY);
        else {
          const dayOf = (ms: number) => {
            const wall = new TZDate(ms, timeZone);
            return Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate()) / 86_400_000;
          };
          const lastMinute = Math.floor(arrivalMs / 60_000) * 60_000 + (minutes - 1) * 60_000;
          // The latest local day reached: the hour repeated at a midnight change can read the day before.
          days = Math.max(dayOf(lastMinute), dayOf(lastMinute - 3_600_000)) - dayOf(arrivalMs) + 1;
        }
        expect(subtotalOf(quote(rateSet, config, arrivalMs, departureMs, timeZone))).toBeLessThanOrEqual(
          (rateSet.dailyMaxCents as number) * days,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("(3) a stay inside one band is charged that band's price", () => {
    fc.assert(
      fc.property(
        validRateSet({ events: false }),
        rateConfig,
        fc.constantFrom(...TIME_ZONES),
        fc.nat(),
        fc.integer({ min: 0, max: 103 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rateSet, config, timeZone, bandPick, week, startAt, lengthAt) => {
          const band = rateSet.bands[bandPick % rateSet.bands.length]!;
          const startMinute = band.startMinute + Math.floor(startAt * (band.endMinute - band.startMinute));
          const minutes = Math.max(1, Math.floor(lengthAt * (band.endMinute - startMinute)));
          // The band's day in week `week` of 2026–2027 (2025-12-29 was a Monday).
          const date = new Date(Date.UTC(2025, 11, 29 + week * 7 + band.day));
          const arrival = new TZDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), Math.floor(startMinute / 60), startMinute % 60, timeZone);
          const arrivalMs = arrival.getTime();
          const departureMs = arrivalMs + minutes * 60_000;
          // Only where the wall clock reads the intended times without an offset change in between.
          fc.pre(arrival.getHours() * 60 + arrival.getMinutes() === startMinute);
          fc.pre(new TZDate(departureMs, timeZone).getTimezoneOffset() === arrival.getTimezoneOffset());
          fc.pre(minutes > config.graceMinutes);
          const result = quote(rateSet, config, arrivalMs, departureMs, timeZone);
          const increments = config.rounding === 'up' ? Math.ceil(minutes / config.incrementMinutes) : Math.floor((2 * minutes + config.incrementMinutes) / (2 * config.incrementMinutes));
          const charge = band.pricing === 'flat' ? (increments > 0 ? band.priceCents : 0) : increments * band.priceCents;
          const expected = rateSet.dailyMaxCents === null ? charge : Math.min(charge, rateSet.dailyMaxCents);
          expect(subtotalOf(result)).toBe(expected);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('(4) a stay across an offset change is charged for the minutes actually parked', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIME_ZONES.filter((zone) => offsetChanges(zone).length > 0)).chain((timeZone) =>
          fc.record({
            timeZone: fc.constant(timeZone),
            change: fc.constantFrom(...offsetChanges(timeZone)),
            before: fc.integer({ min: 1, max: 6 * 60 }),
            after: fc.integer({ min: 1, max: 6 * 60 }),
          }),
        ),
        fc.integer({ min: 1, max: 900 }),
        fc.constantFrom(1, 5, 15, 30, 60),
        ({ timeZone, change, before, after }, price, incrementMinutes) => {
          const arrivalMs = change - before * 60_000;
          const config = { ...hourly, incrementMinutes };
          const result = quote(flatDay(price), config, arrivalMs, change + after * 60_000, timeZone);
          expect(subtotalOf(result)).toBe(Math.ceil((before + after) / incrementMinutes) * price);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('(5) agrees with the minute-by-minute reference, lines included', () => {
    fc.assert(
      fc.property(validRateSet(), rateConfig, stayIn(3 * MINUTES_PER_DAY), (rateSet, config, { timeZone, arrivalMs, stayMs }) => {
        const departureMs = arrivalMs + stayMs;
        const fast = quote(rateSet, config, arrivalMs, departureMs, timeZone);
        const slow = referenceQuote(rateSet, config, arrivalMs, departureMs, timeZone);
        expect(fast.ok).toBe(true);
        if (!fast.ok || !slow) return;
        expect({ subtotal: fast.subtotalCents, amount: fast.amountCents }).toEqual({ subtotal: slow.subtotalCents, amount: slow.amountCents });
        // (6) the lines add up to the amount; the amount is the subtotal plus its tax.
        expect(fast.lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(fast.amountCents);
        expect(fast.amountCents).toBe(fast.subtotalCents + taxOf(fast.subtotalCents, config.taxBasisPoints));
        for (const line of fast.lines) {
          expect(Number.isInteger(line.amountCents)).toBe(true);
          if (line.kind !== 'daily_max') expect(line.amountCents).toBe(line.quantity * line.unitCents);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('(7) a stay within the grace period is free; (8) one past the maximum stay is refused', () => {
    fc.assert(
      fc.property(validRateSet(), rateConfig, stayIn(30), fc.integer({ min: 1, max: 600 }), (rateSet, config, { timeZone, arrivalMs, stayMs }, maxStay) => {
        const minutes = Math.ceil(stayMs / 60_000);
        const withGrace = { ...config, graceMinutes: minutes };
        expect(amountOf(quote(rateSet, withGrace, arrivalMs, arrivalMs + stayMs, timeZone))).toBe(0);
        const limited = { ...rateSet, maxStayMinutes: maxStay };
        const result = quote(limited, config, arrivalMs, arrivalMs + maxStay * 60_000 + stayMs, timeZone);
        expect(result).toMatchObject({ ok: false, reason: 'exceeds_max_stay' });
        expect(quote(limited, config, arrivalMs, arrivalMs + maxStay * 60_000, timeZone).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('(9) without events, the same stay a week later costs the same in a zone without offset changes', () => {
    fc.assert(
      fc.property(validRateSet({ events: false }), rateConfig, fc.constantFrom('UTC', 'Asia/Kolkata'), arrivalIn('UTC'), fc.integer({ min: 1, max: 10 * MINUTES_PER_DAY }),
        (rateSet, config, timeZone, arrivalMs, minutes) => {
          const week = 7 * MINUTES_PER_DAY * 60_000;
          expect(amountOf(quote(rateSet, config, arrivalMs + week, arrivalMs + week + minutes * 60_000, timeZone))).toBe(
            amountOf(quote(rateSet, config, arrivalMs, arrivalMs + minutes * 60_000, timeZone)),
          );
        }),
      { numRuns: 500 },
    );
  });

  it('refuses a departure that is not after the arrival', () => {
    expect(quote(flatDay(100), hourly, 1_000_000, 1_000_000, 'UTC')).toMatchObject({ ok: false, reason: 'not_after_arrival' });
  });

  describe('worked examples (docs/rates.md)', () => {
    const chicago = 'America/Chicago';
    it('clocks going back in Chicago: 00:30 to 03:30 on 1 November 2026 is four hours parked', () => {
      const arrival = new TZDate(2026, 10, 1, 0, 30, chicago).getTime();
      const departure = new TZDate(2026, 10, 1, 3, 30, chicago).getTime();
      expect(departure - arrival).toBe(4 * 3_600_000);
      expect(quote(flatDay(300), hourly, arrival, departure, chicago)).toMatchObject({ ok: true, amountCents: 1200, increments: 4 });
    });
    it('clocks going forward in Chicago: 01:30 to 03:30 on 8 March 2026 is one hour parked', () => {
      const arrival = new TZDate(2026, 2, 8, 1, 30, chicago).getTime();
      const departure = new TZDate(2026, 2, 8, 3, 30, chicago).getTime();
      expect(quote(flatDay(300), hourly, arrival, departure, chicago)).toMatchObject({ ok: true, amountCents: 300, increments: 1 });
    });
    it('a flat evening band visited twice in the repeated hour is charged once', () => {
      const rateSet: RateSet = {
        ...flatDay(100),
        bands: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
          { day, startMinute: 0, endMinute: 120, pricing: 'flat' as const, priceCents: 1_000 },
          { day, startMinute: 120, endMinute: MINUTES_PER_DAY, pricing: 'per_increment' as const, priceCents: 100 },
        ]),
      };
      const arrival = new TZDate(2026, 10, 1, 1, 0, chicago).getTime(); // 01:00 CDT; 01:00–02:00 comes twice
      const result = quote(rateSet, hourly, arrival, arrival + 3 * 3_600_000, chicago);
      // 01:00 CDT (flat 10.00), 01:00 CST (same visit), 02:00 CST (1.00)
      expect(result).toMatchObject({ ok: true, subtotalCents: 1_100 });
    });
    it('daily maximum per 24 h from arrival, or per calendar day', () => {
      const rateSet = { ...flatDay(500), dailyMaxCents: 2_000 };
      const arrival = new TZDate(2026, 5, 1, 20, 0, chicago).getTime(); // Monday 20:00
      const departure = arrival + 8 * 3_600_000; // Tuesday 04:00
      expect(quote(rateSet, hourly, arrival, departure, chicago)).toMatchObject({ ok: true, subtotalCents: 2_000 });
      expect(quote(rateSet, { ...hourly, dailyMaximum: 'calendar_day' }, arrival, departure, chicago)).toMatchObject({ ok: true, subtotalCents: 4_000 });
    });
    it('a flat band interrupted by an event in a capped 24-hour window is one visit, not charged again after it', () => {
      // Wednesday: one dear minute reaches the maximum at 00:02, then a flat band to midnight, with an event over
      // 05:16–15:10. The band was visited at 00:03 in the capped window; its part after the event (from 15:10, the
      // next window) is the same visit (docs/rates.md "How a stay is priced"). Found by the day-tables property test.
      const zeroDay = (day: number) => ({ day, startMinute: 0, endMinute: MINUTES_PER_DAY, pricing: 'per_increment' as const, priceCents: 0 });
      const rateSet: RateSet = {
        bands: [
          ...[0, 1, 3, 4, 5, 6].map(zeroDay),
          { day: 2, startMinute: 0, endMinute: 2, pricing: 'per_increment', priceCents: 0 },
          { day: 2, startMinute: 2, endMinute: 3, pricing: 'per_increment', priceCents: 856 },
          { day: 2, startMinute: 3, endMinute: MINUTES_PER_DAY, pricing: 'flat', priceCents: 100 },
        ],
        events: [{ name: 'Match', start: '2027-02-24T05:16', end: '2027-02-24T15:10', pricing: 'per_increment', priceCents: 0 }],
        dailyMaxCents: 856,
        maxStayMinutes: null,
      };
      const config: RateConfig = { ...hourly, incrementMinutes: 1 };
      const arrival = Date.UTC(2027, 1, 23, 15, 10); // Tuesday 15:10 UTC
      const departure = arrival + 2 * MINUTES_PER_DAY * 60_000;
      const fast = quote(rateSet, config, arrival, departure, 'UTC');
      expect(fast).toMatchObject({ ok: true, subtotalCents: 856 });
      expect(walkedQuote(rateSet, config, arrival, departure, 'UTC')).toEqual(fast);
      expect(referenceQuote(rateSet, config, arrival, departure, 'UTC')).toMatchObject({ subtotalCents: 856 });
      if (fast.ok) expect(fast.lines.filter((line) => line.label.includes('(flat)'))).toEqual([]);
    });
    it('tax is rounded half up to the cent', () => {
      const result = quote(flatDay(250), { ...hourly, taxBasisPoints: 1_000 + 250 }, 0, 3_600_000, 'UTC');
      // 2.50 × 12.5 % = 0.3125 → 0.31
      expect(result).toMatchObject({ ok: true, subtotalCents: 250, taxCents: 31, amountCents: 281 });
    });
  });
});
