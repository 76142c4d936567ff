/**
 * Options the benches of issue 35 share: sizes with a full and a `--smoke` default, the run's size class for the
 * JSON, and PostgreSQL required unless the run says `--no-postgres` (no silent fallback to PGlite).
 */
import { findPostgresBinDir } from '../../test/postgres-binaries';
import { smoke, type Size } from './bench-run';
import { flag, option } from './cli';

/** `--name N`, an integer ≥ min; without it, `full` (or `smokeValue` under --smoke). */
export function wholeOption(name: string, full: number, smokeValue: number, min = 1): number {
  const given = option(name);
  const value = given === undefined ? (smoke ? smokeValue : full) : Number(given);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${given}`);
  return value;
}

/**
 * 'smoke' under --smoke; 'full' only when none of the options that change what is measured was given (the sizes, and
 * flags that leave parts out); 'custom' otherwise.
 */
export function runSize(sizeOptions: readonly string[], leaveOutFlags: readonly string[]): Size {
  if (smoke) return 'smoke';
  const changed = sizeOptions.some((name) => option(name) !== undefined) || leaveOutFlags.some((name) => flag(name));
  return changed ? 'custom' : 'full';
}

/** Fails with a sentence saying what to do when PostgreSQL's server binaries are missing and --no-postgres is not given. */
export function requirePostgres(bench: string): void {
  if (flag('no-postgres') || findPostgresBinDir()) return;
  throw new Error(
    `bench:${bench} measures PostgreSQL and found no PostgreSQL server binaries (initdb, pg_ctl): install PostgreSQL 15 ` +
      `(docs/development.md "Tests"), or run it with --no-postgres to measure PGlite alone (its figures say so in their keys).`,
  );
}
