import { useId, useState } from 'react';
import type { RoleLocation } from '../../contract/roles';
import { ALL_LOCATIONS } from '../../permissions/all-locations';
import { FEATURE_LABELS } from '../../permissions/escalation';
import { ACCESS_LEVELS, FEATURE_CODES, type AccessLevel, type FeatureCode, type PermissionRecord } from '../../permissions/features';
import { cellEditable, levelAt, LEVEL_WORDS, offeredLevels, setColumn, setRow, withLevelAt } from '../../permissions/role-matrix';
import { FormField } from '../../ui/form-field';

export interface RoleMatrixTableProps {
  /** What the signed-in editor holds: a box is offered only where they may grant it. */
  editor: PermissionRecord;
  value: PermissionRecord;
  locations: readonly RoleLocation[];
  readOnly: boolean;
  onChange: (next: PermissionRecord) => void;
}

const NONE = '';
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const parseLevel = (text: string): AccessLevel | null => (text === NONE ? null : (text as AccessLevel));
const rank = (level: AccessLevel | null) => (level === null ? -1 : ACCESS_LEVELS.indexOf(level));

/** The features the role grants at a location, with the highest level of each: "Promo codes: edit; Users: view". */
function accessAt(value: PermissionRecord, locationId: number): { feature: FeatureCode; level: AccessLevel }[] {
  return FEATURE_CODES.flatMap((feature) => {
    const level = levelAt(value, feature, locationId);
    return level === null ? [] : [{ feature, level }];
  });
}

/** Where the editor opens: the first location the role reaches, else the first the editor may grant at. */
function firstLocation(editor: PermissionRecord, value: PermissionRecord, locations: readonly RoleLocation[]): number | undefined {
  const ids = locations.map((location) => location.location_id);
  return (
    ids.find((id) => accessAt(value, id).length > 0) ??
    // A new role opens at a location of today; "All locations, now and later" only when the role holds something there.
    ids.find((id) => id !== ALL_LOCATIONS && FEATURE_CODES.some((feature) => offeredLevels(editor, feature, id).length > 0)) ??
    ids[0]
  );
}

/**
 * The role's permissions one location at a time, so that 8 or 50 locations read the same at 1280 px and on a phone:
 * choose a location, then a box per feature and level (each level includes the ones before it, as the permission
 * rules read them: ticking "edit" ticks view and add; unticking "add" leaves view). A box is offered only where the
 * editor may grant that level there; a level above theirs is shown, not offered. Below: which locations have which
 * access, each a way to open it, and two shortcuts (every feature here; this location's access at all of theirs).
 */
export function RoleMatrixTable({ editor, value, locations, readOnly, onChange }: RoleMatrixTableProps) {
  const captionId = useId();
  const [chosen, setChosen] = useState<number | null>(null);
  const locationId = locations.some((location) => location.location_id === chosen) ? chosen! : firstLocation(editor, value, locations);
  const location = locations.find((candidate) => candidate.location_id === locationId);
  if (!location) return <p className="muted">There are no locations to grant permissions at yet.</p>;
  // "All locations, now and later" (ALL_LOCATIONS), when offered, is a choice of its own, not one of "all my locations".
  const ids = locations.map((candidate) => candidate.location_id).filter((id) => id !== ALL_LOCATIONS);
  const reached = locations.filter((candidate) => accessAt(value, candidate.location_id).length > 0);

  const toggle = (feature: FeatureCode, level: AccessLevel, checked: boolean) => {
    const below = ACCESS_LEVELS[ACCESS_LEVELS.indexOf(level) - 1] ?? null;
    onChange(withLevelAt(value, feature, location.location_id, checked ? level : below));
  };
  const copyEverywhere = () => {
    let next = value;
    for (const feature of FEATURE_CODES) next = setRow(editor, next, feature, ids, levelAt(value, feature, location.location_id));
    onChange(next);
  };

  return (
    <fieldset className="role-matrix">
      <legend>Permissions by location</legend>
      <FormField
        label="Location"
        hint={`${reached.filter((l) => l.location_id !== ALL_LOCATIONS).length} of ${ids.length} locations have access. Each level includes the ones before it: view, add, edit, delete.`}
      >
        {(control) => (
          <select {...control} className="select" value={location.location_id} onChange={(event) => setChosen(Number(event.target.value))}>
            {locations.map((candidate) => {
              const count = accessAt(value, candidate.location_id).length;
              return (
                <option key={candidate.location_id} value={candidate.location_id}>
                  {candidate.name}
                  {count > 0 ? ` (${count} ${count === 1 ? 'feature' : 'features'})` : ''}
                </option>
              );
            })}
          </select>
        )}
      </FormField>
      <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="data-table role-grid">
          <caption id={captionId}>Permissions at {location.name}</caption>
          <thead>
            <tr>
              <th scope="col">Feature</th>
              {ACCESS_LEVELS.map((level) => (
                <th key={level} scope="col">
                  {capitalized(LEVEL_WORDS[level])}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {FEATURE_CODES.map((feature) => {
              const current = levelAt(value, feature, location.location_id);
              const editable = !readOnly && cellEditable(editor, value, feature, location.location_id);
              const offered = offeredLevels(editor, feature, location.location_id);
              // A level the role holds at all locations, now and later, holds here too, whatever this box says.
              const wide = location.location_id === ALL_LOCATIONS ? null : levelAt(value, feature, ALL_LOCATIONS);
              return (
                <tr key={feature}>
                  <th scope="row">{FEATURE_LABELS[feature]}</th>
                  {ACCESS_LEVELS.map((level) => {
                    const covered = rank(wide) >= rank(level);
                    const checked = covered || rank(current) >= rank(level);
                    return (
                      <td key={level}>
                        {/* The label makes the whole cell the box's target; the box's name says all three. */}
                        <label className="role-grid-box">
                          <input
                            type="checkbox"
                            aria-label={`${FEATURE_LABELS[feature]} – ${LEVEL_WORDS[level]} – ${location.name}`}
                            checked={checked}
                            disabled={covered || !editable || (!checked && !offered.includes(level))}
                            onChange={(event) => toggle(feature, level, event.target.checked)}
                          />
                        </label>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {!readOnly && (
        <div className="role-grid-shortcuts">
          <ShortcutSelect
            label={`Every feature at ${location.name}`}
            levels={ACCESS_LEVELS.filter((level) => FEATURE_CODES.some((f) => offeredLevels(editor, f, location.location_id).includes(level)))}
            onPick={(level) => onChange(setColumn(editor, value, location.location_id, level))}
          />
          <button type="button" className="button" onClick={copyEverywhere}>
            Same access at all my locations
          </button>
        </div>
      )}
      <h3 className="role-reach-title">Locations with access</h3>
      {reached.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="role-reach">
          {reached.map((candidate) => (
            <li key={candidate.location_id}>
              <button
                type="button"
                className="link-button"
                aria-current={candidate.location_id === location.location_id || undefined}
                onClick={() => setChosen(candidate.location_id)}
              >
                {candidate.name}
              </button>
              :{' '}
              {accessAt(value, candidate.location_id)
                .map(({ feature, level }) => `${FEATURE_LABELS[feature]} (${LEVEL_WORDS[level]})`)
                .join(', ')}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** A one-shot choice: picking a level applies it, and the select goes back to its prompt. */
function ShortcutSelect({ label, levels, onPick }: { label: string; levels: readonly AccessLevel[]; onPick: (level: AccessLevel | null) => void }) {
  if (levels.length === 0) return null;
  return (
    <FormField label={label}>
      {(control) => (
        <select
          {...control}
          className="select"
          value="choose"
          onChange={(event) => {
            if (event.target.value !== 'choose') onPick(parseLevel(event.target.value));
          }}
        >
          <option value="choose">Set…</option>
          <option value={NONE}>None</option>
          {levels.map((level) => (
            <option key={level} value={level}>
              {capitalized(LEVEL_WORDS[level])}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
