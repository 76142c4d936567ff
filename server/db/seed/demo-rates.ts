import type { RateBand, RateSet } from '../../../src/rates/rate-set';
import { validate } from '../../../src/rates/validate';
import type { Db } from '../db';

/**
 * A current rate set and a saved configuration for each demo location, so that the rate screens show something on
 * `npm start`. Added only where a location has none: rates edited in the console survive restarts.
 */
interface DemoRates {
  locationId: number;
  /** Cents per 15 minutes on weekday days. */
  dayPrice: number;
  eveningFlat: number;
  dailyMax: number;
  taxBasisPoints: number;
  events?: RateSet['events'];
}

const DEMO_RATES: DemoRates[] = [
  { locationId: 1, dayPrice: 200, eveningFlat: 1500, dailyMax: 3800, taxBasisPoints: 2250 },
  {
    locationId: 2,
    dayPrice: 150,
    eveningFlat: 1200,
    dailyMax: 3200,
    taxBasisPoints: 2250,
    events: [{ name: 'Fourth of July fireworks', start: '2026-07-04T17:00', end: '2026-07-05T01:00', pricing: 'flat', priceCents: 3000 }],
  },
  { locationId: 3, dayPrice: 175, eveningFlat: 1400, dailyMax: 3500, taxBasisPoints: 1025 },
  { locationId: 4, dayPrice: 225, eveningFlat: 1800, dailyMax: 4200, taxBasisPoints: 625 },
  { locationId: 5, dayPrice: 100, eveningFlat: 800, dailyMax: 2000, taxBasisPoints: 800 },
  { locationId: 6, dayPrice: 75, eveningFlat: 600, dailyMax: 1600, taxBasisPoints: 500 },
];

/** Weekdays: overnight and evening flat, per 15 minutes by day; weekends a lower rate all day. */
export function demoRateSet(rates: DemoRates): RateSet {
  const bands: RateBand[] = [];
  for (let day = 0; day < 5; day++) {
    bands.push(
      { day, startMinute: 0, endMinute: 360, pricing: 'flat', priceCents: Math.round(rates.eveningFlat * 0.8) },
      { day, startMinute: 360, endMinute: 1080, pricing: 'per_increment', priceCents: rates.dayPrice },
      { day, startMinute: 1080, endMinute: 1440, pricing: 'flat', priceCents: rates.eveningFlat },
    );
  }
  for (const day of [5, 6]) {
    bands.push({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment', priceCents: Math.round(rates.dayPrice * 0.6) });
  }
  return { bands, dailyMaxCents: rates.dailyMax, maxStayMinutes: 30 * 1440, events: rates.events ?? [] };
}

/** When the demo rates took effect: before any demo date, so they are in force whatever the clock says. */
const DEMO_RATES_EFFECTIVE_AT = '2025-01-01T00:00:00Z';

export async function seedDemoRates(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const rates of DEMO_RATES) {
      const { rows } = await tx.query('SELECT 1 FROM locations WHERE location_id = $1', [rates.locationId]);
      if (rows.length === 0) continue;
      await tx.query(
        `INSERT INTO rate_configs (location_id, currency, increment_minutes, rounding, grace_minutes, tax_basis_points,
                                   daily_maximum, version)
         VALUES ($1, 'USD', 15, 'up', 10, $2, 'rolling_24h', 1) ON CONFLICT (location_id) DO NOTHING`,
        [rates.locationId, rates.taxBasisPoints],
      );
      const rateSet = demoRateSet(rates);
      if (validate(rateSet).length > 0) throw new Error(`demo rates of location ${rates.locationId} do not validate`);
      await tx.query(
        `INSERT INTO rate_sets (location_id, effective_at, rate_set, reason, created_at)
         SELECT $1, $2, $3::jsonb, 'Opening rates (demo seed)', $2
          WHERE NOT EXISTS (SELECT 1 FROM rate_sets WHERE location_id = $1)`,
        [rates.locationId, DEMO_RATES_EFFECTIVE_AT, JSON.stringify(rateSet)],
      );
    }
  });
}
