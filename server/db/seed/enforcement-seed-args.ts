import { parseArgs } from 'node:util';
import type { SyncType } from '../../../src/contract/enforcement';
import { DEFAULT_RECORDS, DEFAULT_SEED, DEFAULT_TIE_SIZE, splitRecords, type TypeCounts } from './enforcement-data';
import { DEFAULT_PER_SPACE, type PaymentVolume } from './payment-history';

export const ENFORCEMENT_SEED_USAGE = `Usage: npm run seed -- [options]

Generates enforcement data (transactions, SpotHero and ParkWhiz bookings, monthly parkers) into the database of
the API: PGlite in PGLITE_DIR (default .data/pglite; stop the API first), or DATABASE_URL.

  --records N      total, split evenly over the five types (default ${DEFAULT_RECORDS})
  --valid N        valid transactions (expiry within the next 24 h); overrides its share of --records
  --expired N      expired transactions (expiry within the last 30 days; the API serves the last 21)
  --spothero N     SpotHero bookings
  --parkwhiz N     ParkWhiz bookings
  --monthly N      monthly parkers (one row per vehicle and location)
  --seed S         seed of the random data: the same seed gives the same data (default ${DEFAULT_SEED})
  --locations L    comma-separated location ids (default: every location in the database)
  --tie-size K     records sharing one updated_at, on average (default ${DEFAULT_TIE_SIZE})
  --now ISO        "now" of the data, e.g. 2026-03-02T15:00:00Z (default: the clock)
  --reset          delete all existing enforcement data first (otherwise the records are added)

Payment history (transactions with fees, payment methods, refunds and settlements, for dashboards):
  --history-days N         also write N days of payments ending now at every location (default: none)
  --history-per-space X    payments per space and day (default ${DEFAULT_PER_SPACE}; locations scale with capacity)
  --history-per-day N      instead: payments per location and day on average (shared by capacity)
  --history-total N        instead: exactly N payments in all
  (--records 0 writes the history alone.)

  --help           this text`;

const OPTIONS = {
  records: { type: 'string' },
  valid: { type: 'string' },
  expired: { type: 'string' },
  spothero: { type: 'string' },
  parkwhiz: { type: 'string' },
  monthly: { type: 'string' },
  seed: { type: 'string' },
  locations: { type: 'string' },
  'tie-size': { type: 'string' },
  now: { type: 'string' },
  reset: { type: 'boolean' },
  'history-days': { type: 'string' },
  'history-per-space': { type: 'string' },
  'history-per-day': { type: 'string' },
  'history-total': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const parse = (args: string[]) => parseArgs({ args, options: OPTIONS, allowPositionals: false, strict: true });

export class SeedArgsError extends Error {
  override name = 'SeedArgsError';
}

export interface EnforcementSeedArgs {
  help: boolean;
  counts: TypeCounts;
  seed: string;
  tieSize: number;
  locationIds: number[] | undefined;
  now: Date | undefined;
  reset: boolean;
  /** Payment history to write after the enforcement records; undefined without --history-days. */
  history: ({ days: number } & PaymentVolume) | undefined;
}

const TYPE_FLAGS: Record<string, SyncType> = {
  valid: 'valid',
  expired: 'expired',
  spothero: 'spothero',
  parkwhiz: 'parkwhiz',
  monthly: 'monthly_parkers',
};

function count(flag: string, value: string, minimum = 0): number {
  if (!/^\d+$/.test(value.replace(/_/g, ''))) throw new SeedArgsError(`--${flag} must be a whole number, not "${value}".`);
  const parsed = Number(value.replace(/_/g, ''));
  if (!Number.isSafeInteger(parsed) || parsed < minimum) {
    throw new SeedArgsError(`--${flag} must be a whole number of at least ${minimum}, not "${value}".`);
  }
  return parsed;
}

/** `npm run seed -- …` options; every mistake is an error naming the option, never a silent default. */
export function parseEnforcementSeedArgs(argv: readonly string[]): EnforcementSeedArgs {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse([...argv]).values;
  } catch (error) {
    throw new SeedArgsError((error as Error).message);
  }
  const counts = splitRecords(values.records === undefined ? DEFAULT_RECORDS : count('records', values.records));
  for (const [flag, type] of Object.entries(TYPE_FLAGS)) {
    const value = values[flag as keyof typeof values];
    if (typeof value === 'string') counts[type] = count(flag, value);
  }
  let locationIds: number[] | undefined;
  if (values.locations !== undefined) {
    const ids = values.locations.split(',').map((id) => id.trim());
    if (ids.some((id) => !/^[1-9]\d*$/.test(id))) {
      throw new SeedArgsError(`--locations must list location ids like 1,2,3, not "${values.locations}".`);
    }
    locationIds = [...new Set(ids.map(Number))];
  }
  let now: Date | undefined;
  if (values.now !== undefined) {
    now = new Date(values.now);
    if (Number.isNaN(now.getTime())) throw new SeedArgsError('--now must be a date-time like 2026-03-02T15:00:00Z.');
  }
  if (values.seed !== undefined && values.seed.trim() === '') throw new SeedArgsError('--seed must not be empty.');
  const volumeFlags = (['history-per-space', 'history-per-day', 'history-total'] as const).filter(
    (flag) => values[flag] !== undefined,
  );
  if (volumeFlags.length > 1) throw new SeedArgsError(`Give one of --${volumeFlags.join(' and --')}, not both.`);
  if (volumeFlags.length > 0 && values['history-days'] === undefined) {
    throw new SeedArgsError(`--${volumeFlags[0]} needs --history-days.`);
  }
  let history: EnforcementSeedArgs['history'];
  if (values['history-days'] !== undefined) {
    history = { days: count('history-days', values['history-days'], 1) };
    const perSpace = values['history-per-space'];
    if (perSpace !== undefined) {
      if (!/^\d+(\.\d+)?$/.test(perSpace)) {
        throw new SeedArgsError(`--history-per-space must be a number like 0.9, not "${perSpace}".`);
      }
      history.perSpace = Number(perSpace);
    }
    const perDay = values['history-per-day'];
    if (perDay !== undefined) history.paymentsPerDay = count('history-per-day', perDay);
    const total = values['history-total'];
    if (total !== undefined) history.total = count('history-total', total);
  }
  return {
    help: values.help ?? false,
    counts,
    seed: values.seed ?? String(DEFAULT_SEED),
    tieSize: values['tie-size'] === undefined ? DEFAULT_TIE_SIZE : count('tie-size', values['tie-size'], 1),
    locationIds,
    now,
    reset: values.reset ?? false,
    history,
  };
}
