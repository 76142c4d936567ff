import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RateBand, RateSet } from '../../../../rates/rate-set';
import { validRateSet } from '../../../../rates/testing/arbitraries';
import { validate } from '../../../../rates/validate';
import { daysLabel, draftOf, expandRows, groupBands, rateSetOf, sameRateSet } from './rate-draft';
import { placeProblems } from './row-problems';

const bandKeys = (set: RateSet) => set.bands.map((band) => JSON.stringify(band)).sort();

/** A few prices and cuts, so that days often share bands (the arbitrary's own prices rarely repeat). */
const sharedWeek: fc.Arbitrary<RateSet> = fc
  .tuple(
    fc.array(fc.constantFrom(0, 360, 1080, 1440), { minLength: 7, maxLength: 7 }),
    fc.array(fc.constantFrom(0, 150, 200), { minLength: 14, maxLength: 14 }),
    fc.boolean(),
  )
  .map(([cuts, prices, duplicate]) => {
    const bands: RateBand[] = cuts.flatMap((cut, day): RateBand[] =>
      cut === 0 || cut === 1440
        ? [{ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents: prices[day]! }]
        : [
            { day, startMinute: 0, endMinute: cut, pricing: 'flat' as const, priceCents: prices[day]! },
            { day, startMinute: cut, endMinute: 1440, pricing: 'per_increment' as const, priceCents: prices[day + 7]! },
          ],
    );
    // A duplicated band (an overlap `validate` refuses) must survive the round trip too.
    return { bands: duplicate ? [...bands, bands[0]!] : bands, dailyMaxCents: null, maxStayMinutes: null, events: [] };
  });

describe('the editor’s band rows', () => {
  it('group a rate set’s bands and expand back to the same bands, maximums and events', () => {
    fc.assert(
      fc.property(fc.oneof(validRateSet(), sharedWeek), (rateSet) => {
        const back = rateSetOf(draftOf(rateSet));
        expect(bandKeys(back)).toEqual(bandKeys(rateSet));
        expect(sameRateSet(back, rateSet)).toBe(true);
        expect({ ...back, bands: [] }).toEqual({ ...rateSet, bands: [] });
      }),
      { numRuns: 500 },
    );
  });

  it('put each band in exactly one row, rows alike in everything but their days merged', () => {
    fc.assert(
      fc.property(sharedWeek, (rateSet) => {
        const groups = groupBands(rateSet.bands);
        expect(groups.reduce((count, group) => count + group.days.length, 0)).toBe(rateSet.bands.length);
        const signature = (band: RateBand) => `${band.startMinute} ${band.endMinute} ${band.pricing} ${band.priceCents}`;
        // Two rows alike share no day (else they would be one row).
        for (const [i, a] of groups.entries()) {
          for (const b of groups.slice(i + 1)) {
            if (signature(a.band) === signature(b.band)) expect(a.days.some((day) => b.days.includes(day))).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shows the seeded kind of week (Mon–Fri three bands, Sat–Sun one) as four rows', () => {
    const weekday = [0, 1, 2, 3, 4].flatMap((day) => [
      { day, startMinute: 0, endMinute: 360, pricing: 'flat' as const, priceCents: 1200 },
      { day, startMinute: 360, endMinute: 1080, pricing: 'per_increment' as const, priceCents: 200 },
      { day, startMinute: 1080, endMinute: 1440, pricing: 'flat' as const, priceCents: 1500 },
    ]);
    const weekend = [5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents: 120 }));
    const rows = draftOf({ bands: [...weekend, ...weekday], dailyMaxCents: null, maxStayMinutes: null, events: [] }).rows;
    expect(rows.map((row) => `${daysLabel(row.days)} ${row.start}–${row.end} ${row.price}`)).toEqual([
      'Mon–Fri 00:00–06:00 12.00',
      'Mon–Fri 06:00–18:00 2.00',
      'Mon–Fri 18:00–24:00 15.00',
      'Sat, Sun 00:00–24:00 1.20',
    ]);
  });

  it('say a gap once for all the days of the row it follows', () => {
    const draft = draftOf({
      bands: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
        { day, startMinute: 0, endMinute: 1080, pricing: 'per_increment' as const, priceCents: 100 },
        { day, startMinute: 1080, endMinute: 1440, pricing: 'flat' as const, priceCents: 500 },
      ]),
      dailyMaxCents: null,
      maxStayMinutes: null,
      events: [],
    });
    const [day, evening] = draft.rows as [(typeof draft.rows)[0], (typeof draft.rows)[0]];
    const edited = { ...draft, rows: [{ ...day, end: '17:00' }, { ...evening, days: [0, 1, 2, 3, 4, 5] }] };
    const { origins } = expandRows(edited.rows);
    const placed = placeProblems(validate(rateSetOf(edited)), origins, edited.rows);
    expect(placed.byRow.get(day.key)).toEqual(['Monday–Saturday 17:00–18:00: no band covers this time.', 'Sunday 17:00–24:00: no band covers this time.']);
    expect(placed.general).toEqual([]);
  });
});
