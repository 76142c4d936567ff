import { ALL_LOCATIONS, ALL_LOCATIONS_WORDS } from './all-locations';
import { changedTriples, FEATURE_LABELS, mayGrant } from './escalation';
import {
  ACCESS_LEVELS,
  FEATURE_CODES,
  LEVEL_KEYS,
  type AccessLevel,
  type FeatureCode,
  type FeatureGrant,
  type PermissionRecord,
} from './features';
import { locationsWithAccess } from './rules';

/**
 * The role editor's matrix (features × locations, one level per cell) over a permission record. A cell holds the
 * highest level the record grants there, as the permission rules read it: "edit" in a cell means view, add and edit.
 * Writing a cell stores only that level's list, so the record stays in its plainest form.
 */
export function levelAt(record: PermissionRecord, feature: FeatureCode, locationId: number): AccessLevel | null {
  for (const level of [...ACCESS_LEVELS].reverse()) {
    if (locationsWithAccess(record, feature, level).includes(locationId)) return level;
  }
  return null;
}

const emptyGrant = (): FeatureGrant => ({ v: [], a: [], e: [], d: [] });

/** The record with one cell set to `level` (null: nothing at that location for that feature). */
export function withLevelAt(
  record: PermissionRecord,
  feature: FeatureCode,
  locationId: number,
  level: AccessLevel | null,
): PermissionRecord {
  const grant = emptyGrant();
  const current = record[feature] ?? emptyGrant();
  for (const held of ACCESS_LEVELS) {
    grant[LEVEL_KEYS[held]] = current[LEVEL_KEYS[held]].filter((id) => id !== locationId);
  }
  if (level !== null) grant[LEVEL_KEYS[level]] = [...grant[LEVEL_KEYS[level]], locationId].sort((a, b) => a - b);
  const next: PermissionRecord = { ...record };
  if (ACCESS_LEVELS.some((held) => grant[LEVEL_KEYS[held]].length > 0)) next[feature] = grant;
  else delete next[feature];
  return next;
}

/**
 * The levels the editor may choose in a cell: from nothing up to the level they hold there themselves. The cell's
 * current level is always shown, but when it lies above what the editor holds the cell is theirs to look at only
 * (changing it would take away what they do not hold).
 */
export function offeredLevels(
  editor: PermissionRecord,
  feature: FeatureCode,
  locationId: number,
): AccessLevel[] {
  return ACCESS_LEVELS.filter((level) => mayGrant(editor, feature, level, locationId));
}

export function cellEditable(
  editor: PermissionRecord,
  role: PermissionRecord,
  feature: FeatureCode,
  locationId: number,
): boolean {
  const current = levelAt(role, feature, locationId);
  if (current !== null && !mayGrant(editor, feature, current, locationId)) return false;
  return offeredLevels(editor, feature, locationId).length > 0;
}

/**
 * "All my locations" for one feature (a row) or one location (a column, over every feature): sets `level` in every
 * cell the editor may set it in, leaving the others as they are.
 */
export function setRow(
  editor: PermissionRecord,
  role: PermissionRecord,
  feature: FeatureCode,
  locationIds: readonly number[],
  level: AccessLevel | null,
): PermissionRecord {
  let next = role;
  for (const id of locationIds) {
    if (!cellEditable(editor, next, feature, id)) continue;
    if (level !== null && !mayGrant(editor, feature, level, id)) continue;
    next = withLevelAt(next, feature, id, level);
  }
  return next;
}

export function setColumn(
  editor: PermissionRecord,
  role: PermissionRecord,
  locationId: number,
  level: AccessLevel | null,
): PermissionRecord {
  let next = role;
  for (const feature of FEATURE_CODES) next = setRow(editor, next, feature, [locationId], level);
  return next;
}

export const LEVEL_WORDS: Record<AccessLevel, string> = { view: 'view', add: 'add', edit: 'edit', delete: 'delete' };

function listWords(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Locations by name, and ALL_LOCATIONS (src/permissions/all-locations.ts) in words. */
const namedBy = (locationName: (id: number) => string) => (id: number) =>
  id === ALL_LOCATIONS ? ALL_LOCATIONS_WORDS : locationName(id);

/**
 * The record in plain words, one line per feature: "Promo codes: add at Pike Place Market Garage; view at Union
 * Station Garage". The level said is the highest at each location (it includes the lower ones). A grant at all
 * locations, now and later (ALL_LOCATIONS in the record) is said first, and a location it covers is not said again.
 */
export function describeRole(record: PermissionRecord, locationName: (id: number) => string): string[] {
  if (record.su) return ['Superuser: every feature at every location, and the superuser sections.'];
  const lines: string[] = [];
  const named = namedBy(locationName);
  for (const feature of FEATURE_CODES) {
    const byLevel = new Map<AccessLevel, number[]>();
    const wide = levelAt(record, feature, ALL_LOCATIONS);
    for (const id of locationsWithAccess(record, feature, 'view')) {
      const level = levelAt(record, feature, id)!;
      if (id !== ALL_LOCATIONS && wide !== null && ACCESS_LEVELS.indexOf(level) <= ACCESS_LEVELS.indexOf(wide)) continue;
      byLevel.set(level, [...(byLevel.get(level) ?? []), id]);
    }
    if (byLevel.size === 0) continue;
    const parts = [...ACCESS_LEVELS]
      .reverse()
      .filter((level) => byLevel.has(level))
      .map((level) => `${LEVEL_WORDS[level]} at ${listWords(byLevel.get(level)!.map(named))}`);
    lines.push(`${FEATURE_LABELS[feature]}: ${parts.join('; ')}`);
  }
  return lines;
}

export interface RoleChange {
  kind: 'added' | 'removed';
  words: string;
}

/** What saving would change, triple by triple, in words ("Adds Promo codes: edit at Pike Place Market Garage"). */
export function describeChanges(
  saved: PermissionRecord,
  draft: PermissionRecord,
  locationName: (id: number) => string,
): RoleChange[] {
  if (saved.su !== draft.su) {
    return [
      {
        kind: draft.su ? 'added' : 'removed',
        words: draft.su ? 'Makes this a superuser role' : 'Makes this an ordinary role (no longer superuser)',
      },
    ];
  }
  const named = namedBy(locationName);
  return changedTriples(saved, draft).map((triple) => {
    const added = locationsWithAccess(draft, triple.feature, triple.level).includes(triple.locationId);
    return {
      kind: added ? 'added' : 'removed',
      words: `${added ? 'Adds' : 'Removes'} ${FEATURE_LABELS[triple.feature]}: ${LEVEL_WORDS[triple.level]} at ${named(triple.locationId)}`,
    };
  });
}
