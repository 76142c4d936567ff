import type { Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { applyUserSeed } from '../../server/db/seed/apply-user-seed';
import { applyDemoSeed } from '../../server/db/seed/demo-seed';
import { DEMO_LOCATIONS } from '../../server/db/seed/demo-locations';
import { writePaymentHistory, type PaymentHistorySeedResult } from '../../server/db/seed/payment-history';
import { createRandom } from '../../server/db/seed/prng';

/**
 * An operator's database at scale, for the list benchmarks: the six demo locations plus 44 more in 22 US cities
 * (50 in all, in 9 IANA time zones), the demo accounts plus two benchmark personas, and a year of payment history written
 * by the seed's own generator and bulk writer (server/db/seed/payment-history.ts). The same options give the same
 * rows on PGlite and PostgreSQL.
 */

const CITIES = [
  ['New York', 'NY', '10001', 'America/New_York'],
  ['Washington', 'DC', '20001', 'America/New_York'],
  ['Atlanta', 'GA', '30303', 'America/New_York'],
  ['Charlotte', 'NC', '28202', 'America/New_York'],
  ['Detroit', 'MI', '48226', 'America/Detroit'],
  ['Indianapolis', 'IN', '46204', 'America/Indiana/Indianapolis'],
  ['Houston', 'TX', '77002', 'America/Chicago'],
  ['Dallas', 'TX', '75201', 'America/Chicago'],
  ['Austin', 'TX', '78701', 'America/Chicago'],
  ['Minneapolis', 'MN', '55402', 'America/Chicago'],
  ['St. Louis', 'MO', '63101', 'America/Chicago'],
  ['New Orleans', 'LA', '70112', 'America/Chicago'],
  ['Salt Lake City', 'UT', '84101', 'America/Denver'],
  ['Albuquerque', 'NM', '87102', 'America/Denver'],
  ['Tucson', 'AZ', '85701', 'America/Phoenix'],
  ['Los Angeles', 'CA', '90012', 'America/Los_Angeles'],
  ['San Francisco', 'CA', '94103', 'America/Los_Angeles'],
  ['San Diego', 'CA', '92101', 'America/Los_Angeles'],
  ['Portland', 'OR', '97204', 'America/Los_Angeles'],
  ['Las Vegas', 'NV', '89101', 'America/Los_Angeles'],
  ['Anchorage', 'AK', '99501', 'America/Anchorage'],
  ['Honolulu', 'HI', '96813', 'Pacific/Honolulu'],
] as const;

const LOTS = [
  ['Downtown Garage', 'Main St'],
  ['Convention Center Garage', 'Convention Way'],
  ['Stadium Lot', 'Stadium Dr'],
  ['Medical Center Garage', 'Hospital Ave'],
  ['Riverfront Lot', 'Water St'],
  ['Airport Economy Lot', 'Airport Blvd'],
  ['City Hall Garage', 'Civic Center Plz'],
  ['Arts District Lot', 'Gallery Row'],
] as const;

export const OPERATOR_LOCATION_COUNT = 50;

export interface OperatorLocation {
  location_id: number;
  name: string;
  address: string;
  time_zone: string;
  capacity: number;
}

/** Ids 7–50: two lots in each city of CITIES, capacities 80–1,500 spaces. */
export function extraLocations(seed: string | number = 1): OperatorLocation[] {
  const random = createRandom(`${seed}:bench:locations`);
  const locations: OperatorLocation[] = [];
  for (let id = DEMO_LOCATIONS.length + 1; id <= OPERATOR_LOCATION_COUNT; id++) {
    const index = id - DEMO_LOCATIONS.length - 1;
    const [city, state, zip, timeZone] = CITIES[Math.floor(index / 2) % CITIES.length]!;
    const [lot, street] = LOTS[(index * 3 + Math.floor(index / 2)) % LOTS.length]!;
    locations.push({
      location_id: id,
      name: `${city} ${lot}`,
      address: `${100 + ((id * 37) % 900)} ${street}, ${city}, ${state} ${zip}`,
      time_zone: timeZone,
      capacity: random.weighted([
        [random.int(80, 250), 3],
        [random.int(250, 700), 5],
        [random.int(700, 1500), 2],
      ] as const),
    });
  }
  return locations;
}

/** The personas whose lists are measured. */
export const PERSONAS = {
  /** Superuser: every location without a list (`scope.all`). */
  all: 'superuser@example.com',
  /** Refund-portal view granted at each of the 50 locations, one by one: the usual non-superuser head office. */
  listed: 'head-office@bench.example',
  /** Refund-portal view at a handful of locations (a regional manager). */
  handful: 'regional-manager@bench.example',
} as const;
export type Persona = keyof typeof PERSONAS;
/** The regional manager's locations: two Chicago demo lots, Boston, Detroit, Portland (mixed sizes and zones). */
export const HANDFUL_LOCATIONS = [1, 2, 4, 15, 43];

export interface OperatorSeedResult {
  history: PaymentHistorySeedResult;
  /** Wall time of each stage, seconds. */
  seconds: { schemaAndUsers: number; history: number; vacuum: number; total: number };
}

/**
 * Migrates an empty database and fills it. `VACUUM (ANALYZE)` at the end leaves the tables as a year of inserts
 * leaves them on PostgreSQL, where autovacuum has run (visibility map set, statistics fresh). PGlite has no autovacuum.
 */
export async function seedOperatorDatabase(
  db: Db,
  options: { rows: number; days: number; seed: string | number; now: Date; onProgress?: (written: number, total: number) => void },
): Promise<OperatorSeedResult> {
  const started = performance.now();
  await migrate(db);
  await applyDemoSeed(db);
  await db.transaction(async (tx) => {
    for (const location of extraLocations(options.seed)) {
      await tx.query(
        `INSERT INTO locations (location_id, name, address, time_zone, capacity, status, enforcement_enabled)
         VALUES ($1, $2, $3, $4, $5, 'active', true) ON CONFLICT DO NOTHING`,
        [location.location_id, location.name, location.address, location.time_zone, location.capacity],
      );
    }
    await tx.query(`SELECT setval(pg_get_serial_sequence('locations', 'location_id'), (SELECT max(location_id) FROM locations))`);
  });
  const every = Array.from({ length: OPERATOR_LOCATION_COUNT }, (_, index) => index + 1);
  await applyUserSeed(
    db,
    [
      { email: PERSONAS.listed, password: 'bench-only', permissions: { rp: { v: every } } },
      { email: PERSONAS.handful, password: 'bench-only', permissions: { rp: { v: HANDFUL_LOCATIONS } } },
    ],
    { source: 'list benchmark personas' },
  );
  const schemaDone = performance.now();
  const history = await writePaymentHistory(db, {
    days: options.days,
    total: options.rows,
    seed: options.seed,
    now: options.now,
    locationIds: every,
    onProgress: options.onProgress,
  });
  const historyDone = performance.now();
  // The whole database (locations and staff too: without statistics the planner takes 50 locations for 420).
  await db.exec('VACUUM (ANALYZE)');
  const done = performance.now();
  return {
    history,
    seconds: {
      schemaAndUsers: (schemaDone - started) / 1000,
      history: (historyDone - schemaDone) / 1000,
      vacuum: (done - historyDone) / 1000,
      total: (done - started) / 1000,
    },
  };
}
