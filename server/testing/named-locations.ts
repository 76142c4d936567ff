import type { Queryable } from '../db/db';

/**
 * Locations with chosen names and offerings, written straight into the table (no audit row: tests of location
 * choices need only that they exist), for tests of which locations a choice offers and in what order. `remove`
 * deletes them again, so the seeded six stay what other tests of the file count on.
 */
export async function addNamedLocations(db: Queryable, locations: { name: string; offering: 'full' | 'lite' }[]) {
  const ids = new Map<string, number>();
  for (const { name, offering } of locations) {
    const { rows } = await db.query<{ location_id: number }>(
      `INSERT INTO locations (name, address, time_zone, capacity, offering, operator_name, enforcement_enabled)
       VALUES ($1, '1 Test St, Chicago, IL 60601', 'America/Chicago', 10, $2, $3, true) RETURNING location_id`,
      [name, offering, offering === 'lite' ? 'Test Operator' : null],
    );
    ids.set(name, rows[0]!.location_id);
  }
  return {
    ids,
    remove: async () => {
      await db.query('DELETE FROM locations WHERE location_id = ANY($1::int[])', [[...ids.values()]]);
    },
  };
}
