import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { MINUTES_PER_DAY, type RateBand, type RateSet } from './rate-set';
import { validate } from './validate';
import { validRateSet } from './testing/arbitraries';

/** Minute by minute: how many well-formed bands cover each minute of each day; malformed bands make the set bad. */
function bruteForce(bands: RateBand[]): { acceptable: boolean; cover: Int32Array } {
  const cover = new Int32Array(7 * MINUTES_PER_DAY);
  let wellFormed = true;
  for (const band of bands) {
    const ok =
      Number.isInteger(band.day) && band.day >= 0 && band.day <= 6 &&
      Number.isInteger(band.startMinute) && Number.isInteger(band.endMinute) &&
      band.startMinute >= 0 && band.startMinute < band.endMinute && band.endMinute <= MINUTES_PER_DAY;
    if (!ok) {
      wellFormed = false;
      continue;
    }
    for (let minute = band.startMinute; minute < band.endMinute; minute++) cover[band.day * MINUTES_PER_DAY + minute]! += 1;
  }
  return { acceptable: wellFormed && cover.every((count) => count === 1), cover };
}

/** Per minute of the week: 1 where `validate` reported a problem of that kind. */
function minutesOf(problems: ReturnType<typeof validate>, kind: 'gap' | 'overlap'): Uint8Array {
  const minutes = new Uint8Array(7 * MINUTES_PER_DAY);
  for (const problem of problems) {
    if (problem.kind === kind) minutes.fill(1, problem.day! * MINUTES_PER_DAY + problem.startMinute!, problem.day! * MINUTES_PER_DAY + problem.endMinute!);
  }
  return minutes;
}

/** The first minute where the reported spans and the brute-force count disagree, or −1. */
function firstDisagreement(reported: Uint8Array, cover: Int32Array, expected: (count: number) => boolean): number {
  for (let minute = 0; minute < cover.length; minute++) {
    if ((reported[minute] === 1) !== expected(cover[minute]!)) return minute;
  }
  return -1;
}

/** Bands on a coarse grid so that exact covers, gaps and overlaps all come up often; now and then a malformed one. */
const looseBand: fc.Arbitrary<RateBand> = fc
  .tuple(
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 24 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 20 }),
  )
  .map(([day, from, to, odd]) => ({
    day: odd === 0 ? 7 : day,
    startMinute: from * 60 + (odd === 1 ? 30 : 0),
    endMinute: to * 60,
    pricing: 'per_increment' as const,
    priceCents: 100,
  }));

/** Either a valid set with one band nudged, dropped or duplicated, or a loose pile of bands. */
const candidateBands: fc.Arbitrary<RateBand[]> = fc.oneof(
  fc.tuple(validRateSet({ events: false, dailyMax: false }), fc.nat(), fc.integer({ min: -90, max: 90 }), fc.constantFrom('nudge start', 'nudge end', 'drop', 'duplicate', 'keep'))
    .map(([rateSet, pick, by, change]) => {
      const bands = rateSet.bands.map((band) => ({ ...band }));
      const index = pick % bands.length;
      const band = bands[index]!;
      if (change === 'nudge start') band.startMinute += by;
      else if (change === 'nudge end') band.endMinute += by;
      else if (change === 'drop') bands.splice(index, 1);
      else if (change === 'duplicate') bands.push({ ...band });
      return bands;
    }),
  fc.tuple(...[0, 1, 2, 3, 4, 5, 6].map((day) => fc.array(looseBand.map((band) => ({ ...band, day: band.day === 7 ? 7 : day })), { minLength: 1, maxLength: 4 }))).map((days) => days.flat()),
);

const rateSetOf = (bands: RateBand[]): RateSet => ({ bands, dailyMaxCents: null, maxStayMinutes: null, events: [] });

describe('validate', { timeout: 60_000 }, () => {
  it('accepts exactly the rate sets that cover each day without gaps or overlaps, and names each minute', () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidateBands, (bands) => {
        const problems = validate(rateSetOf(bands));
        const expected = bruteForce(bands);
        expect(problems.length === 0).toBe(expected.acceptable);
        if (problems.length === 0) accepted++;
        // Among the well-formed bands, the reported gaps and overlaps are exactly the uncovered and twice-covered minutes.
        const wellFormed = bands.filter((band) => !problems.some((problem) => problem.band !== undefined && problem.kind !== 'gap' && problem.kind !== 'overlap' && bands[problem.band] === band));
        const { cover } = bruteForce(wellFormed);
        expect(firstDisagreement(minutesOf(problems, 'gap'), cover, (count) => count === 0)).toBe(-1);
        expect(firstDisagreement(minutesOf(problems, 'overlap'), cover, (count) => count > 1)).toBe(-1);
      }),
      { numRuns: 1_500 },
    );
    // The test means something only if both answers come up.
    expect(accepted).toBeGreaterThan(100);
  });

  it('says the day and hour of each problem', () => {
    const bands: RateBand[] = [
      { day: 0, startMinute: 0, endMinute: 480, pricing: 'per_increment', priceCents: 100 },
      { day: 0, startMinute: 540, endMinute: 1440, pricing: 'per_increment', priceCents: -5 },
      { day: 1, startMinute: 0, endMinute: 720, pricing: 'per_increment', priceCents: 100 },
      { day: 1, startMinute: 660, endMinute: 1440, pricing: 'flat', priceCents: 3_000 },
      { day: 2, startMinute: 1320, endMinute: 120, pricing: 'per_increment', priceCents: 100 },
    ];
    const messages = validate({ bands, dailyMaxCents: 2_500, maxStayMinutes: null, events: [] }).map((problem) => problem.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Monday 08:00–09:00: no band covers this time.',
        'Monday 09:00–24:00: the price is below zero.',
        'Tuesday 11:00–12:00: bands 3 and 4 overlap; one band applies at a time.',
        "Tuesday 11:00–24:00: the daily maximum (25.00) is below this band's price (30.00).",
        'Wednesday 22:00–02:00: a band must end by midnight (24:00); split it into two bands, one on each day.',
        'Wednesday 00:00–24:00: no band covers this day.',
        'Thursday 00:00–24:00: no band covers this day.',
      ]),
    );
  });

  it('checks events: times, order, overlaps and prices', () => {
    const base = validate({
      bands: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: MINUTES_PER_DAY, pricing: 'per_increment' as const, priceCents: 100 })),
      dailyMaxCents: 1_000,
      maxStayMinutes: 0,
      events: [
        { name: 'Concert', start: '2026-07-04T18:00', end: '2026-07-04T23:00', pricing: 'flat', priceCents: 2_000 },
        { name: 'Fireworks', start: '2026-07-04T21:00', end: '2026-07-05T01:00', pricing: 'flat', priceCents: 500 },
        { name: '', start: '2026-02-30T10:00', end: '2026-07-04T10:00', pricing: 'flat', priceCents: 500 },
      ],
    }).map((problem) => problem.message);
    expect(base).toEqual(
      expect.arrayContaining([
        'The maximum stay must be a whole number of minutes from 1 to 527,040 (366 days).',
        "Event \"Concert\": the daily maximum (10.00) is below this event's price (20.00).",
        'Events 1 and 2 overlap; one event applies at a time.',
        'Event 3: enter a name of at most 80 characters.',
        'Event 3: the start must be a date and time.',
      ]),
    );
  });
});
