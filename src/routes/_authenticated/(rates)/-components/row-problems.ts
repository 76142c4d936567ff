import { WEEKDAY_NAMES, clockTime } from '../../../../rates/rate-set';
import type { RateProblem } from '../../../../rates/validate';
import { daysLabel, type BandOrigin, type BandRow } from './rate-draft';

/**
 * `validate` speaks of the stored bands, one per day ("Tuesday 17:00–18:00: no band covers this time."); the editor
 * shows rows of several days. Each problem goes to the row its band came from (an overlap to both rows), and a row's
 * problems that differ only by day become one sentence ("Monday–Friday 17:00–18:00: …"). A band's own fields (times,
 * price) are checked at their inputs first (`rowFieldProblems`), so `validate`'s words for them are not repeated.
 */
export interface PlacedProblems {
  /** Sentences by row key. */
  byRow: Map<number, string[]>;
  /** Problems of no band: a day with no band at all, the maximums, events. */
  general: string[];
}

const CHECKED_AT_THE_FIELD = new Set<RateProblem['kind']>(['bad_time', 'past_midnight', 'bad_price', 'negative_price', 'bad_day', 'bad_maximum']);

export function placeProblems(problems: readonly RateProblem[], origins: readonly BandOrigin[], rows: readonly BandRow[]): PlacedProblems {
  const rowNumber = new Map(rows.map((row, index) => [row.key, index + 1]));
  // (row key, sentence without its day) → the days it is true of, in the order first met.
  const grouped = new Map<string, { rowKey: number; rest: string; days: number[] }>();
  const general: string[] = [];
  const add = (rowKey: number, day: number, rest: string) => {
    const id = `${rowKey}\u0000${rest}`;
    const group = grouped.get(id) ?? { rowKey, rest, days: [] };
    group.days.push(day);
    grouped.set(id, group);
  };
  for (const problem of problems) {
    if (CHECKED_AT_THE_FIELD.has(problem.kind)) continue;
    const origin = problem.band === undefined ? undefined : origins[problem.band];
    const day = problem.day ?? origin?.day;
    const dayName = day === undefined ? undefined : WEEKDAY_NAMES[day];
    const span = problem.startMinute === undefined || problem.endMinute === undefined ? '' : ` ${clockTime(problem.startMinute)}–${clockTime(problem.endMinute)}`;
    if (!origin || day === undefined || dayName === undefined) {
      // A day with no band at all is grouped too ("Saturday, Sunday 00:00–24:00: no band covers this day.").
      if (day !== undefined && dayName !== undefined && problem.message.startsWith(dayName)) add(-1, day, problem.message.slice(dayName.length));
      else general.push(problem.message);
      continue;
    }
    if (problem.kind === 'overlap') {
      const other = problem.otherBand === undefined ? undefined : origins[problem.otherBand];
      const numbers = [rowNumber.get(origin.rowKey), other && rowNumber.get(other.rowKey)].sort((a, b) => (a ?? 0) - (b ?? 0));
      const rest = `${span}: bands ${numbers[0]} and ${numbers[1]} overlap; one band applies at a time.`;
      add(origin.rowKey, day, rest);
      if (other && other.rowKey !== origin.rowKey) add(other.rowKey, day, rest);
    } else if (problem.kind === 'gap') {
      add(origin.rowKey, day, `${span}: no band covers this time.`);
    } else if (problem.message.startsWith(dayName)) {
      add(origin.rowKey, day, problem.message.slice(dayName.length));
    } else {
      add(origin.rowKey, day, `: ${problem.message}`);
    }
  }
  const byRow = new Map<number, string[]>();
  for (const { rowKey, rest, days } of grouped.values()) {
    const sentence = `${daysLabel(days, WEEKDAY_NAMES)}${rest}`;
    if (rowKey === -1) general.push(sentence);
    else byRow.set(rowKey, [...(byRow.get(rowKey) ?? []), sentence]);
  }
  return { byRow, general };
}

/** The server's sentences for stored bands (`rate_set.bands.3.endMinute`), placed at the rows those bands came from. */
export function placeServerErrors(fieldErrors: Record<string, string>, origins: readonly BandOrigin[]): { byRow: Map<number, string[]>; other: [string, string][] } {
  const byRow = new Map<number, string[]>();
  const other: [string, string][] = [];
  for (const [field, message] of Object.entries(fieldErrors)) {
    const band = /^rate_set\.bands\.(\d+)\./.exec(field)?.[1];
    const origin = band === undefined ? undefined : origins[Number(band)];
    if (origin) {
      const messages = byRow.get(origin.rowKey) ?? [];
      if (!messages.includes(message)) byRow.set(origin.rowKey, [...messages, message]);
    } else other.push([field, message]);
  }
  return { byRow, other };
}
