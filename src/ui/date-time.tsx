import type { FieldControlProps } from './form-field';
import { formatDateTime } from './format';
import { msToWallClock, wallClockToMs, zoneAbbreviation } from './zoned-time';

/**
 * A moment as staff read it, in one format everywhere: "Nov 23, 2026, 3:04 PM CST", on the clock of `timeZone` (the
 * record's location, or the viewer's for records of several locations or none). The exact instant stays in the
 * `<time>` element for machines.
 */
export function DateTime({ iso, timeZone }: { iso: string; timeZone: string }) {
  return (
    <time className="date-time" dateTime={iso}>
      {formatDateTime(iso, timeZone)}
    </time>
  );
}

/** ISO instant → the text a DateTimeInput shows for it in `timeZone` ("" for no value). */
export function instantToWallClock(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : msToWallClock(ms, timeZone);
}

/** The wall-clock text of a DateTimeInput → an ISO instant ("" when it is empty or not a real time). */
export function wallClockToInstant(text: string, timeZone: string): string {
  const ms = wallClockToMs(text, timeZone);
  return ms === null ? '' : new Date(ms).toISOString();
}

type DateTimeInputProps = FieldControlProps & {
  /** The wall-clock text "2026-03-01T00:00" on `timeZone`'s clock (a form holds it as typed). */
  value: string;
  onChange: (text: string) => void;
  onBlur?: () => void;
  timeZone: string;
  disabled?: boolean;
};

/**
 * A date and time picked on the clock of `timeZone`, with the zone's abbreviation beside it ("CST") so nobody has to
 * guess which clock. Convert with `instantToWallClock` / `wallClockToInstant` where the form is filled and sent.
 */
export function DateTimeInput({ value, onChange, onBlur, timeZone, ...rest }: DateTimeInputProps) {
  const at = wallClockToMs(value, timeZone) ?? Date.now();
  return (
    <span className="date-time-input">
      <input
        {...rest}
        type="datetime-local"
        className="input"
        value={value}
        onBlur={onBlur}
        onChange={(event) => onChange(event.target.value)}
      />
      <span className="muted">{zoneAbbreviation(timeZone, at)}</span>
    </span>
  );
}
