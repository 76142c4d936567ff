import type { VersionConflict } from '../../src/contract/lists';
import { centsToDollarsText } from '../../src/contract/money-text';
import {
  violationCodeOf,
  type CitationViolations,
  type LocationViolation,
  type ViolationInput,
  type ViolationUpdate,
} from '../../src/contract/violations';
import type { LocationScope } from '../../src/permissions/scope';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';

/**
 * Violations per location (migration 025; docs/decisions/0097): the office's list of a location, its changes (each
 * on the location's History), the lists an officer's device downloads, and the check a citation's violation passes.
 */

const COLUMNS = `v.code, v.label, v.fine_cents, v.position, v.active, v.version,
  EXISTS (SELECT 1 FROM citations c WHERE c.location_id = v.location_id AND c.violation = v.code) AS in_use`;

/** Every violation of a location, active or not, in the order officers see them; none for a location that does not exist. */
export async function listLocationViolations(db: Queryable, locationId: number): Promise<LocationViolation[]> {
  const { rows } = await db.query<LocationViolation>(
    `SELECT ${COLUMNS} FROM location_violations v WHERE v.location_id = $1 ORDER BY v.position, v.code`,
    [locationId],
  );
  return rows;
}

async function findViolation(db: Queryable, locationId: number, code: string): Promise<LocationViolation | undefined> {
  const { rows } = await db.query<LocationViolation>(`SELECT ${COLUMNS} FROM location_violations v WHERE v.location_id = $1 AND v.code = $2`, [
    locationId,
    code,
  ]);
  return rows[0];
}

/**
 * The actions are worded as History shows them unlabelled ("violation added" → "Violation added"), so the console's
 * table of action words (in the first load of every page) needs no entry for them.
 *
 * What the location's History keeps of a violation: one line with its name, fine and state. History shows the fields
 * that changed, so one field that holds all three names the violation in every entry, even when only its fine moved.
 */
const audited = (violation: Pick<LocationViolation, 'label' | 'fine_cents' | 'active'>) => ({
  violation: `${violation.label} · $${centsToDollarsText(violation.fine_cents)}${violation.active ? '' : ' (inactive)'}`,
});

export type ViolationWriteResult =
  | { kind: 'ok'; violation: LocationViolation }
  | { kind: 'notFound' }
  | { kind: 'labelTaken'; label: string }
  | { kind: 'conflict'; conflict: VersionConflict };

/** An active violation of the location with this label (any case), other than `exceptCode`. */
async function labelTaken(tx: Queryable, locationId: number, label: string, exceptCode: string | null): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM location_violations WHERE location_id = $1 AND active AND lower(label) = lower($2) AND code IS DISTINCT FROM $3',
    [locationId, label, exceptCode],
  );
  return rows.length > 0;
}

/**
 * Adds a violation at the end of the location's list. Its code is made from the label; when that code is taken (a
 * deactivated violation of the same name, say), a number is added, so old citations keep meaning what they meant.
 */
export async function addViolation(tx: Queryable, actor: Actor, locationId: number, input: ViolationInput): Promise<ViolationWriteResult> {
  // The location's row is locked: two additions at once get distinct positions and codes.
  const location = await tx.query('SELECT 1 FROM locations WHERE location_id = $1 FOR UPDATE', [locationId]);
  if (!location.rows.length) return { kind: 'notFound' };
  if (await labelTaken(tx, locationId, input.label, null)) return { kind: 'labelTaken', label: input.label };
  const { rows: taken } = await tx.query<{ code: string }>('SELECT code FROM location_violations WHERE location_id = $1', [locationId]);
  const codes = new Set(taken.map((row) => row.code));
  const base = violationCodeOf(input.label);
  let code = base;
  for (let n = 2; codes.has(code); n += 1) code = `${base.slice(0, 36)}_${n}`;
  await tx.query(
    `INSERT INTO location_violations (location_id, code, label, fine_cents, position)
     VALUES ($1, $2, $3, $4, (SELECT coalesce(max(position), 0) + 1 FROM location_violations WHERE location_id = $1))`,
    [locationId, code, input.label, input.fine_cents],
  );
  const violation = (await findViolation(tx, locationId, code))!;
  await writeAudit(tx, { actor, entity: 'location', entityId: locationId, action: 'violation added', before: null, after: audited(violation) });
  return { kind: 'ok', violation };
}

/** Relabels, changes the fine, deactivates or activates one violation, from `version`; nothing changed writes nothing. */
export async function updateViolation(
  tx: Queryable,
  actor: Actor,
  locationId: number,
  code: string,
  change: ViolationUpdate,
): Promise<ViolationWriteResult> {
  const { rows } = await tx.query<{ version: number }>(
    'SELECT version FROM location_violations WHERE location_id = $1 AND code = $2 FOR UPDATE',
    [locationId, code],
  );
  const current = rows[0];
  if (!current) return { kind: 'notFound' };
  const before = (await findViolation(tx, locationId, code))!;
  if (current.version !== change.version) {
    return { kind: 'conflict', conflict: { currentVersion: current.version, ...(await lastChange(tx, 'location', locationId)) } };
  }
  if (before.label === change.label && before.fine_cents === change.fine_cents && before.active === change.active) {
    return { kind: 'ok', violation: before };
  }
  if (change.active && (await labelTaken(tx, locationId, change.label, code))) return { kind: 'labelTaken', label: change.label };
  await tx.query(
    `UPDATE location_violations SET label = $3, fine_cents = $4, active = $5, version = version + 1, updated_at = now()
      WHERE location_id = $1 AND code = $2`,
    [locationId, code, change.label, change.fine_cents, change.active],
  );
  const violation = (await findViolation(tx, locationId, code))!;
  await writeAudit(tx, {
    actor,
    entity: 'location',
    entityId: locationId,
    action: 'violation changed',
    before: audited(before),
    after: audited(violation),
  });
  return { kind: 'ok', violation };
}

/**
 * The active violations of each location of `scope` (an officer's enforcement add locations), for the device. A
 * location whose list has none active is there with an empty list: the device must not take it for one never
 * downloaded.
 */
export async function offeredViolations(db: Queryable, scope: LocationScope): Promise<CitationViolations> {
  const { rows } = await db.query<{ location_id: number; code: string | null; label: string | null; fine_cents: number | null }>(
    `SELECT l.location_id, v.code, v.label, v.fine_cents
       FROM locations l LEFT JOIN location_violations v ON v.location_id = l.location_id AND v.active
      WHERE ${scope.all ? 'true' : 'l.location_id = ANY($1::int[])'}
      ORDER BY l.location_id, v.position, v.code`,
    scope.all ? [] : [scope.ids],
  );
  const locations: CitationViolations['locations'] = [];
  for (const { location_id, code, label, fine_cents } of rows) {
    let entry = locations.at(-1);
    if (entry?.location_id !== location_id) locations.push((entry = { location_id, violations: [] }));
    if (code !== null && label !== null && fine_cents !== null) entry.violations.push({ code, label, fine_cents });
  }
  return { locations };
}

/**
 * The label a citation's violation has now at its location, or undefined when the code is not on that list. A
 * deactivated violation is still accepted: a device offline since before the change may have offered it.
 */
export async function violationLabelAt(db: Queryable, locationId: number, code: string): Promise<string | undefined> {
  const { rows } = await db.query<{ label: string }>('SELECT label FROM location_violations WHERE location_id = $1 AND code = $2', [locationId, code]);
  return rows[0]?.label;
}
