import { memo } from 'react';
import type { FieldControlProps } from './form-field';
import { suggestTimeZone, timeZoneGroups, timeZoneLabel } from './time-zones';

/** The ~420 options, rendered once rather than with every keystroke elsewhere in the form. */
const ZoneOptions = memo(function ZoneOptions({ chosen }: { chosen: string }) {
  const groups = timeZoneGroups();
  const listed = groups.some((group) => group.zones.some(({ zone }) => zone === chosen));
  return (
    <>
      <option value="">Choose a time zone</option>
      {/* A saved zone the browser does not list (an alias such as Asia/Calcutta) stays choosable. */}
      {chosen && !listed && <option value={chosen}>{timeZoneLabel(chosen)}</option>}
      {groups.map((group) => (
        <optgroup key={group.label} label={group.label}>
          {group.zones.map(({ zone, label }) => (
            <option key={zone} value={zone}>
              {zone === chosen ? timeZoneLabel(zone) : label}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
});

/**
 * A location's time zone (inside a FormField): a select of IANA zones named in words, empty until chosen, and below
 * it a one-click suggestion from the address ("Use America/Chicago (suggested from the address)"), or the computer's
 * own zone when the address names none. Nothing is chosen for the person: a wrong default went unnoticed.
 */
export function TimeZoneSelect(props: {
  control: FieldControlProps;
  name: string;
  value: string;
  /** The address typed so far, read for the suggestion. */
  address: string;
  onChange: (zone: string) => void;
  onBlur: () => void;
}) {
  const suggestion = suggestTimeZone(props.address);
  return (
    <>
      <select
        {...props.control}
        name={props.name}
        className="select"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
      >
        <ZoneOptions chosen={props.value} />
      </select>
      {suggestion && suggestion.zone !== props.value && (
        <button type="button" className="link-button zone-suggestion" onClick={() => props.onChange(suggestion.zone)}>
          Use {suggestion.zone} ({suggestion.source})
        </button>
      )}
    </>
  );
}
