// The shape of a day table, apart from the code that builds and reads it (day-tables.ts): the prepared rate set
// caches day tables and day-tables.ts reads the prepared rate set, so the type lives here and neither imports the
// other back (no import cycle, docs/architecture.md).

/**
 * Prefix sums of a rate set's bands per weekday and increment phase, so that a stretch of a local day with no offset
 * change and no event is priced with two lookups instead of a walk of its runs (docs/rates.md "Speed").
 *
 * The increments of a stay start at local minutes of one residue modulo the increment (the **phase**) as long as the
 * offset does not change: every increment length divides 1,440, so the phase is the same every day. `cum` holds, per
 * run of the week and phase, the charge of a day's increments starting before the run, counting each flat band once
 * (at its first increment of the day): the charge of increments in [m1, m2) of a day whose earlier increments were all
 * priced by bands in this stay is `chargeBefore(m2) − chargeBefore(m1)`.
 */
export interface DayTable {
  increment: number;
  /** Runs in the week. */
  runs: number;
  /** Index phase × runs + run: the day's charge before the run starts (phase-major: a stay reads one phase's row). */
  cum: Float64Array;
  /** Index phase × 7 + weekday: the whole day's charge. */
  dayTotal: Float64Array;
  /** Index phase × runs + run: increments starting in the run (the lines' counts of whole runs). */
  runStarts: Int32Array;
}
