import { ALL_LOCATIONS, ALL_LOCATIONS_WORDS, holdings, type AllLocations } from './all-locations';
import { ACCESS_LEVELS, FEATURE_CODES, type AccessLevel, type FeatureCode, type PermissionRecord } from './features';
import { hasPermission, locationsWithAccess } from './rules';

/**
 * No escalation (issue 13): a user may grant, revoke or change only (feature, level, location) triples that they
 * hold themselves at that level or above; only a superuser creates, edits or deletes a superuser role, or gives one
 * to a user (or takes it away); nobody changes their own role or disables themselves. The server decides every
 * request with these functions; the role editor offers only what `mayGrant` allows.
 *
 * Triples are compared as the permission rules read them (`locationsWithAccess`): a location listed under edit also
 * counts for view and add, so adding "edit at 3" to a role that had "view at 3" changes (add, 3) and (edit, 3), and
 * the editor must hold edit at 3. Storing the same effective grant differently (edit and view both listed, or edit
 * alone) changes nothing and needs nothing.
 *
 * A grant at all locations, now and later is the triple (feature, level, ALL_LOCATIONS) of the records these
 * functions are given (src/permissions/all-locations.ts `holdings`): only an editor holding that very grant may give
 * or take it away; holding every location that exists today is not enough (it would reach locations added later).
 */
/** The features in words, for refusals and the role editor's summary ("Promo codes: add at …"). */
export const FEATURE_LABELS: Record<FeatureCode, string> = {
  pc: 'Promo codes',
  ur: 'User roles',
  u: 'Users',
  rs: 'Rate settings',
  e: 'Enforcement',
  rp: 'Refund portal',
  rd: 'Real-time dashboard',
  sd: 'Settled dashboard',
  lo: 'Locations',
};

export interface PermissionTriple {
  feature: FeatureCode;
  level: AccessLevel;
  locationId: number;
}

export type EscalationVerdict =
  | { ok: true }
  /** A superuser role is involved (before or after) and the editor is not a superuser. */
  | { ok: false; reason: 'superuserOnly' }
  /** The editor tries to change their own role, or disable their own account. */
  | { ok: false; reason: 'self' }
  /** Triples the change adds or removes that the editor does not hold. */
  | { ok: false; reason: 'notHeld'; triples: PermissionTriple[] };

const EMPTY: PermissionRecord = { su: false };

/** Every (feature, level, location) a non-superuser record grants, as the permission rules read it. */
export function effectiveTriples(record: PermissionRecord): PermissionTriple[] {
  return FEATURE_CODES.flatMap((feature) =>
    ACCESS_LEVELS.flatMap((level) =>
      locationsWithAccess(record, feature, level).map((locationId) => ({ feature, level, locationId })),
    ),
  );
}

const tripleKey = (t: PermissionTriple) => `${t.feature}/${t.level}/${t.locationId}`;

/** The triples one record grants and the other does not (either way), in feature, level, location order. */
export function changedTriples(before: PermissionRecord, after: PermissionRecord): PermissionTriple[] {
  const beforeTriples = effectiveTriples(before);
  const afterTriples = effectiveTriples(after);
  const beforeKeys = new Set(beforeTriples.map(tripleKey));
  const afterKeys = new Set(afterTriples.map(tripleKey));
  const changed = [
    ...beforeTriples.filter((t) => !afterKeys.has(tripleKey(t))),
    ...afterTriples.filter((t) => !beforeKeys.has(tripleKey(t))),
  ];
  const featureOrder = (t: PermissionTriple) => FEATURE_CODES.indexOf(t.feature);
  const levelOrder = (t: PermissionTriple) => ACCESS_LEVELS.indexOf(t.level);
  return changed.sort(
    (a, b) => featureOrder(a) - featureOrder(b) || levelOrder(a) - levelOrder(b) || a.locationId - b.locationId,
  );
}

/** Whether the editor may add or remove this one triple (the role matrix offers a control only when so). */
export function mayGrant(
  editor: PermissionRecord,
  feature: FeatureCode,
  level: AccessLevel,
  locationId: number,
): boolean {
  return hasPermission(editor, feature, level, [locationId]);
}

/**
 * Changing what a role grants from `before` to `after` (null: the role does not exist yet, or no longer). Renaming
 * alone changes no triple, and is refused only for a superuser role edited by a non-superuser.
 */
export function checkRoleChange(
  editor: PermissionRecord,
  before: PermissionRecord | null,
  after: PermissionRecord | null,
): EscalationVerdict {
  if (editor.su) return { ok: true };
  if (before?.su || after?.su) return { ok: false, reason: 'superuserOnly' };
  const refused = changedTriples(before ?? EMPTY, after ?? EMPTY).filter(
    (t) => !mayGrant(editor, t.feature, t.level, t.locationId),
  );
  return refused.length === 0 ? { ok: true } : { ok: false, reason: 'notHeld', triples: refused };
}

/**
 * Whether the editor may give this role to someone (who held nothing): every triple it grants is theirs, its
 * all-locations grants included. Both records come as served, expanded to today's locations.
 */
export function mayGiveRole(
  editor: { record: PermissionRecord; allLocations: AllLocations },
  role: { permissions: PermissionRecord; all_locations: AllLocations },
): boolean {
  const held = holdings(editor.record, editor.allLocations, []);
  return checkRoleChange(held, null, holdings(role.permissions, role.all_locations, [])).ok;
}

/**
 * Giving a user another role (or none: null), or disabling / enabling them, which takes away or gives back every
 * triple their role grants (`before` and `after` are what the user holds before and after). The user's own account
 * is never theirs to change.
 */
export function checkUserChange(
  editor: { userId: number; record: PermissionRecord },
  targetUserId: number,
  before: PermissionRecord | null,
  after: PermissionRecord | null,
): EscalationVerdict {
  if (editor.userId === targetUserId) return { ok: false, reason: 'self' };
  return checkRoleChange(editor.record, before, after);
}

/** The refusal in words, for a 403 (e.g. "Promo codes: add at location 3"). */
export function describeRefusal(
  verdict: Exclude<EscalationVerdict, { ok: true }>,
  subject: 'role' | 'user',
  featureName: (feature: FeatureCode) => string = (feature) => FEATURE_LABELS[feature],
  locationName: (locationId: number) => string = (id) => `location ${id}`,
): string {
  switch (verdict.reason) {
    case 'superuserOnly':
      return subject === 'role'
        ? 'Only a superuser may create, change or delete a superuser role.'
        : 'Only a superuser may give a superuser role, take one away, or disable or enable a superuser.';
    case 'self':
      return 'You cannot change your own role or disable your own account; ask another administrator.';
    case 'notHeld': {
      const where = (id: number) => (id === ALL_LOCATIONS ? ALL_LOCATIONS_WORDS : locationName(id));
      const listed = verdict.triples
        .slice(0, 5)
        .map((t) => `${featureName(t.feature)}: ${t.level} at ${where(t.locationId)}`)
        .join('; ');
      const more = verdict.triples.length > 5 ? ` and ${verdict.triples.length - 5} more` : '';
      return `You may only grant or take away permissions you hold yourself. Not yours: ${listed}${more}.`;
    }
  }
}
