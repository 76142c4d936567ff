import { createRandom } from '../../server/db/seed/prng';
import { MINUTES_PER_DAY, type EventRate, type RateBand, type RateConfig, type RateSet } from '../../src/rates/rate-set';
import { validate } from '../../src/rates/validate';

/**
 * The fixed mix of `npm run bench:rates`: the same in Node and in Chromium (bundled the same way for both,
 * bench/rates/engines.ts).
 * Rate sets of 1 to 20 bands a day, some flat, with 0 to 6 events; stays from 1 minute to 30 days, log-uniform
 * (as many 1–10 minute stays as 3–30 day ones), arriving anywhere in 2026–2027, a fifth of them next to a DST change.
 */
export interface QuoteCase {
  rateSet: RateSet;
  config: RateConfig;
  arrivalMs: number;
  departureMs: number;
  timeZone: string;
}

const ZONES = ['America/Chicago', 'America/New_York', 'America/Los_Angeles', 'America/Denver', 'Europe/Prague', 'Australia/Lord_Howe'];
const BANDS_PER_DAY = [1, 2, 4, 8, 12, 20];
// US changes of 2026 and 2027 in UTC (02:00 local in Chicago, close enough for the others to be near one).
const DST_CHANGES = ['2026-03-08T08:00Z', '2026-11-01T07:00Z', '2027-03-14T08:00Z', '2027-11-07T07:00Z'].map((at) => Date.parse(at));

function rateSetWith(bandsPerDay: number, events: number, random: ReturnType<typeof createRandom>): RateSet {
  const bands: RateBand[] = [];
  for (let day = 0; day < 7; day++) {
    const cuts = new Set<number>();
    while (cuts.size < bandsPerDay - 1) cuts.add(random.int(1, 95) * 15);
    const edges = [0, ...[...cuts].sort((a, b) => a - b), MINUTES_PER_DAY];
    for (let index = 1; index < edges.length; index++) {
      bands.push({
        day,
        startMinute: edges[index - 1]!,
        endMinute: edges[index]!,
        pricing: random.chance(0.2) ? 'flat' : 'per_increment',
        priceCents: random.int(0, 12) * 25,
      });
    }
  }
  const eventRates: EventRate[] = [];
  for (let index = 0; index < events; index++) {
    const start = Date.UTC(2026, 0, 1) + random.int(0, 729) * 86_400_000 + random.int(12, 20) * 3_600_000;
    eventRates.push({
      name: `Event ${index + 1}`,
      start: new Date(start).toISOString().slice(0, 16),
      end: new Date(start + random.int(2, 8) * 3_600_000).toISOString().slice(0, 16),
      pricing: random.chance(0.5) ? 'flat' : 'per_increment',
      priceCents: random.int(1, 40) * 50,
    });
  }
  return { bands, events: eventRates, dailyMaxCents: random.chance(0.8) ? random.int(40, 120) * 50 : null, maxStayMinutes: null };
}

export function buildCases(count: number, seed = 'rates-bench'): QuoteCase[] {
  const random = createRandom(seed);
  const rateSets: RateSet[] = [];
  for (const bandsPerDay of BANDS_PER_DAY) {
    for (const events of [0, 2, 6]) {
      const rateSet = rateSetWith(bandsPerDay, events, random);
      if (validate(rateSet).some((problem) => problem.kind !== 'event_overlap')) throw new Error('the bench built an invalid rate set');
      rateSets.push(rateSet);
    }
  }
  const configs: RateConfig[] = [15, 30, 60, 1].flatMap((incrementMinutes) =>
    (['rolling_24h', 'calendar_day'] as const).map((dailyMaximum) => ({
      currency: 'USD',
      incrementMinutes,
      rounding: 'up' as const,
      graceMinutes: 5,
      taxBasisPoints: 1025,
      dailyMaximum,
    })),
  );
  const cases: QuoteCase[] = [];
  const longest = Math.log(30 * MINUTES_PER_DAY);
  for (let index = 0; index < count; index++) {
    const minutes = Math.max(1, Math.round(Math.exp(random.next() * longest)));
    const arrivalMs = random.chance(0.2)
      ? random.pick(DST_CHANGES) + random.int(-2 * MINUTES_PER_DAY, 60) * 60_000
      : Date.UTC(2026, 0, 1) + random.int(0, 729 * MINUTES_PER_DAY) * 60_000;
    cases.push({
      rateSet: random.pick(rateSets),
      config: random.pick(configs),
      arrivalMs,
      departureMs: arrivalMs + minutes * 60_000 - random.int(0, 59) * 1000,
      timeZone: random.pick(ZONES),
    });
  }
  return cases;
}

