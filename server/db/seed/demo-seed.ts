import type { Db } from '../db';
import type { CreateIdentity } from '../staff-identity';
import { applyUserSeed } from './apply-user-seed';
import { DEMO_ACCOUNTS, demoSeedUser } from './demo-accounts';
import { DEMO_LOCATIONS } from './demo-locations';

const LOCATION_FIELDS = [
  'name',
  'address',
  'time_zone',
  'capacity',
  'status',
  'enforcement_enabled',
  'grace_period_minutes',
] as const;

/**
 * Adds the six demo locations under their fixed ids when they are missing. An existing row is left as it is: staff
 * may have edited it in the console (with its version and History), and a restart must not undo their change.
 */
export async function seedDemoLocations(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const location of DEMO_LOCATIONS) {
      await tx.query(
        `INSERT INTO locations (location_id, ${LOCATION_FIELDS.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT DO NOTHING`,
        [location.location_id, ...LOCATION_FIELDS.map((field) => location[field])],
      );
    }
    // Explicit ids bypass the serial sequence; move it past them so the next inserted location gets a fresh id.
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('locations', 'location_id'), (SELECT max(location_id) FROM locations))`,
    );
  });
}

/** The demo locations and accounts (server/db/seed/demo-accounts.ts). */
export async function applyDemoSeed(db: Db, options: { createIdentity?: CreateIdentity | undefined } = {}) {
  await seedDemoLocations(db);
  return applyUserSeed(db, DEMO_ACCOUNTS.map(demoSeedUser), {
    createIdentity: options.createIdentity,
    source: 'demo accounts',
  });
}
