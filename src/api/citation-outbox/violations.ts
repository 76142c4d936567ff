import { CITATION_VIOLATIONS_PATH, citationViolationsSchema, DEFAULT_VIOLATIONS, type OfferedViolation } from '../../contract/citations';
import type { ApiClient } from '../client';
import type { OutboxDatabase, OutboxViolationList } from './outbox-db';

/**
 * The violations the citation form offers (docs/decisions/0097): each location's own list, downloaded while online
 * and kept in the outbox database for offline use.
 */

/**
 * Downloads the lists of the officer's locations and keeps them, replacing what the device had for those locations.
 * Quiet: offline or refused, the device keeps what it has.
 */
export async function downloadViolations(db: OutboxDatabase, api: ApiClient, now = Date.now()): Promise<void> {
  const answer = await api.get(CITATION_VIOLATIONS_PATH, undefined, citationViolationsSchema, { quietStatuses: [401, 403, 500, 502, 503, 504] });
  await db.violations.bulkPut(answer.locations.map((location) => ({ ...location, downloadedAt: now })));
}

/** The lists the device has, by location id. */
export async function keptViolations(db: OutboxDatabase): Promise<Map<number, OutboxViolationList>> {
  const lists = await db.violations.toArray();
  return new Map(lists.map((list) => [list.location_id, list]));
}

/** What the form offers at a location: its downloaded list, or the shipped defaults when it was never downloaded. */
export function offeredAt(lists: ReadonlyMap<number, OutboxViolationList>, locationId: number | undefined): { violations: readonly OfferedViolation[]; defaults: boolean } {
  const kept = locationId === undefined ? undefined : lists.get(locationId);
  return kept ? { violations: kept.violations, defaults: false } : { violations: DEFAULT_VIOLATIONS, defaults: true };
}
