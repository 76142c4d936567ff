import { useId } from 'react';
import type { RoleLocation } from '../../../contract/roles';
import { FEATURE_LABELS } from '../../../permissions/escalation';
import { ACCESS_LEVELS, FEATURE_CODES, type AccessLevel, type PermissionRecord } from '../../../permissions/features';
import { cellEditable, levelAt, LEVEL_WORDS, offeredLevels, setColumn, setRow, withLevelAt } from '../../../permissions/role-matrix';

export interface RoleMatrixTableProps {
  /** What the signed-in editor holds: a control is offered only where they may grant it. */
  editor: PermissionRecord;
  value: PermissionRecord;
  locations: readonly RoleLocation[];
  readOnly: boolean;
  onChange: (next: PermissionRecord) => void;
}

const NONE = '';
const levelText = (level: AccessLevel | null) => (level === null ? 'None' : LEVEL_WORDS[level][0]!.toUpperCase() + LEVEL_WORDS[level].slice(1));
const parseLevel = (text: string): AccessLevel | null => (text === NONE ? null : (text as AccessLevel));

/**
 * The role editor's matrix: a row per feature, a column per location, one level per cell (each level includes the
 * lower ones, as the permission rules read them). A cell offers only the levels the editor holds there; one whose
 * current level is above theirs is shown, not offered. "All my locations" (per row) and "Every feature" (per column)
 * set a level wherever the editor may. Native selects: every control is reachable and usable with the keyboard.
 */
export function RoleMatrixTable({ editor, value, locations, readOnly, onChange }: RoleMatrixTableProps) {
  const captionId = useId();
  const ids = locations.map((location) => location.location_id);
  return (
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="data-table role-matrix">
        <caption id={captionId}>Permissions by feature and location (each level includes the ones before it: view, add, edit, delete)</caption>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            {!readOnly && <th scope="col">All my locations</th>}
            {locations.map((location) => (
              <th key={location.location_id} scope="col">
                {location.name}
              </th>
            ))}
          </tr>
          {!readOnly && (
            <tr>
              <th scope="row">Every feature</th>
              <td />
              {locations.map((location) => (
                <td key={location.location_id}>
                  <ShortcutSelect
                    label={`Every feature at ${location.name}`}
                    levels={ACCESS_LEVELS.filter((level) => FEATURE_CODES.some((f) => offeredLevels(editor, f, location.location_id).includes(level)))}
                    onPick={(level) => onChange(setColumn(editor, value, location.location_id, level))}
                  />
                </td>
              ))}
            </tr>
          )}
        </thead>
        <tbody>
          {FEATURE_CODES.map((feature) => (
            <tr key={feature}>
              <th scope="row">{FEATURE_LABELS[feature]}</th>
              {!readOnly && (
                <td>
                  <ShortcutSelect
                    label={`${FEATURE_LABELS[feature]} at all my locations`}
                    levels={ACCESS_LEVELS.filter((level) => ids.some((id) => offeredLevels(editor, feature, id).includes(level)))}
                    onPick={(level) => onChange(setRow(editor, value, feature, ids, level))}
                  />
                </td>
              )}
              {locations.map((location) => {
                const current = levelAt(value, feature, location.location_id);
                const label = `${FEATURE_LABELS[feature]} at ${location.name}`;
                if (readOnly || !cellEditable(editor, value, feature, location.location_id)) {
                  return (
                    <td key={location.location_id} aria-label={`${label}: ${levelText(current)}`}>
                      <span aria-hidden="true">{current === null ? '—' : levelText(current)}</span>
                    </td>
                  );
                }
                const offered = offeredLevels(editor, feature, location.location_id);
                return (
                  <td key={location.location_id}>
                    <select
                      className="select"
                      aria-label={label}
                      value={current ?? NONE}
                      onChange={(event) => onChange(withLevelAt(value, feature, location.location_id, parseLevel(event.target.value)))}
                    >
                      <option value={NONE}>None</option>
                      {offered.map((level) => (
                        <option key={level} value={level}>
                          {levelText(level)}
                        </option>
                      ))}
                    </select>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A one-shot choice: picking a level applies it, and the select goes back to its prompt. */
function ShortcutSelect({ label, levels, onPick }: { label: string; levels: readonly AccessLevel[]; onPick: (level: AccessLevel | null) => void }) {
  if (levels.length === 0) return null;
  return (
    <select
      className="select"
      aria-label={label}
      value="choose"
      onChange={(event) => {
        if (event.target.value !== 'choose') onPick(parseLevel(event.target.value));
      }}
    >
      <option value="choose">Set…</option>
      <option value={NONE}>None</option>
      {levels.map((level) => (
        <option key={level} value={level}>
          {levelText(level)}
        </option>
      ))}
    </select>
  );
}
