import type { Location } from '../../src/contract/locations';
import type { LocationRef } from '../../src/permissions/permissions-object';
import type { Queryable } from './db';

const LOCATION_COLUMNS =
  'location_id, name, address, time_zone, capacity, status, enforcement_enabled, grace_period_minutes';

export async function listLocations(db: Queryable): Promise<Location[]> {
  const { rows } = await db.query<Location>(`SELECT ${LOCATION_COLUMNS} FROM locations ORDER BY location_id`);
  return rows;
}

/** location_id is a PostgreSQL integer; larger ids cannot exist, and sending them would fail the query. */
export const MAX_LOCATION_ID = 2_147_483_647;

export async function findLocation(db: Queryable, locationId: number): Promise<Location | undefined> {
  if (!Number.isInteger(locationId) || locationId < 1 || locationId > MAX_LOCATION_ID) return undefined;
  const { rows } = await db.query<Location>(`SELECT ${LOCATION_COLUMNS} FROM locations WHERE location_id = $1`, [
    locationId,
  ]);
  return rows[0];
}

/** What the permissions object needs of every location (ids for superusers, names for enforcementLocations). */
export async function listLocationRefs(db: Queryable): Promise<LocationRef[]> {
  const { rows } = await db.query<LocationRef>(
    'SELECT location_id, name, time_zone FROM locations ORDER BY location_id',
  );
  return rows;
}
