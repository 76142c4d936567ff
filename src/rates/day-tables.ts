import { MINUTES_PER_DAY } from './rate-set';
import { runOf, type PreparedRateSet } from './prepared-rate-set';
import type { DayTable } from './day-table';

export type { DayTable };

/** Increments of phase `phase` (local minutes phase, phase + increment, …) starting before minute `minute` of a day. */
export function startsBefore(minute: number, phase: number, increment: number): number {
  return minute <= phase ? 0 : Math.floor((minute - phase - 1) / increment) + 1;
}

/** The table of an increment length, built on first use; only for rate sets where each band is one run. */
export function dayTableOf(tables: PreparedRateSet, increment: number): DayTable {
  const cached = tables.dayTables[increment];
  if (cached) return cached;
  const { runFrom, runTo, runBand, dayFirstRun, bandFlat, bandPrice } = tables;
  const runs = runBand.length;
  const cum = new Float64Array(runs * increment);
  const dayTotal = new Float64Array(7 * increment);
  const runStarts = new Int32Array(runs * increment);
  for (let phase = 0; phase < increment; phase++) {
    for (let day = 0; day < 7; day++) {
      let total = 0;
      for (let run = dayFirstRun[day] as number; run < (dayFirstRun[day + 1] as number); run++) {
        cum[phase * runs + run] = total;
        const starts = startsBefore(runTo[run] as number, phase, increment) - startsBefore(runFrom[run] as number, phase, increment);
        runStarts[phase * runs + run] = starts;
        const band = runBand[run] as number;
        if (band < 0) continue;
        if (starts > 0) total += bandFlat[band] === 1 ? (bandPrice[band] as number) : starts * (bandPrice[band] as number);
      }
      dayTotal[phase * 7 + day] = total;
    }
  }
  const table = { increment, runs, cum, dayTotal, runStarts };
  tables.dayTables[increment] = table;
  return table;
}

/** The charge of the increments of phase `phase` that start before `minute` (0–1440) of weekday `weekday`. */
export function chargeBefore(tables: PreparedRateSet, table: DayTable, weekday: number, phase: number, minute: number): number {
  const increment = table.increment;
  if (minute >= MINUTES_PER_DAY) return table.dayTotal[phase * 7 + weekday] as number;
  const run = runOf(tables, weekday, minute);
  let charge = table.cum[phase * table.runs + run] as number;
  const band = tables.runBand[run] as number;
  if (band >= 0) {
    const starts = startsBefore(minute, phase, increment) - startsBefore(tables.runFrom[run] as number, phase, increment);
    if (starts > 0) charge += tables.bandFlat[band] === 1 ? (tables.bandPrice[band] as number) : starts * (tables.bandPrice[band] as number);
  }
  return charge;
}

/**
 * Adds to the lines' counts what `times` days' increments of phase `phase` in [from, to) of weekday `weekday` charged:
 * increments per band, or one visit for a flat band whose first increment of the day is among them (or, on an
 * `untouched` day, the flat band in progress at `from`).
 */
export function countSegment(
  tables: PreparedRateSet,
  table: DayTable,
  weekday: number,
  phase: number,
  from: number,
  to: number,
  times: number,
  untouched: boolean,
): void {
  const { runFrom, runTo, runBand, dayFirstRun, bandFlat, bandCount } = tables;
  const { increment, runStarts } = table;
  const row = phase * table.runs;
  const lastRun = dayFirstRun[weekday + 1] as number;
  let touchedLow = tables.touchedLow;
  let touchedHigh = tables.touchedHigh;
  for (let run = runOf(tables, weekday, from); run < lastRun && (runFrom[run] as number) < to; run++) {
    const band = runBand[run] as number;
    if (band < 0) continue;
    const start = runFrom[run] as number;
    const end = runTo[run] as number;
    let starts: number;
    // Whether the band's first increment of the day is in the stretch (for a flat band's visit).
    let first: boolean;
    if (start >= from && end <= to) {
      starts = runStarts[row + run] as number;
      first = true;
    } else {
      const before = startsBefore(start, phase, increment);
      const low = startsBefore(start > from ? start : from, phase, increment);
      starts = startsBefore(end < to ? end : to, phase, increment) - low;
      // On an untouched day, the flat band in progress at `from` is visited here even if it began earlier.
      first = untouched || low === before;
    }
    if (starts <= 0) continue;
    if (band < touchedLow) touchedLow = band;
    if (band > touchedHigh) touchedHigh = band;
    if (bandFlat[band] === 1) {
      if (first) bandCount[band] = (bandCount[band] as number) + times;
    } else bandCount[band] = (bandCount[band] as number) + times * starts;
  }
  tables.touchedLow = touchedLow;
  tables.touchedHigh = touchedHigh;
}
