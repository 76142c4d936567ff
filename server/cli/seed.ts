/**
 * `npm run seed -- [options]`: generates realistic enforcement data (server/db/seed/enforcement-data.ts) and, with
 * --history-days, payment history (server/db/seed/payment-history.ts) into the API's database: PGlite in PGLITE_DIR,
 * or DATABASE_URL. Options: `npm run seed -- --help`.
 */
import { SYNC_TYPES } from '../../src/contract/enforcement';
import { readServerConfig } from '../config';
import { migrate } from '../db/migrate';
import { describeDatabase, openDatabase } from '../db/open-database';
import type { Db } from '../db/db';
import { EnforcementSeedError, generateEnforcementData } from '../db/seed/enforcement-data';
import {
  ENFORCEMENT_SEED_USAGE,
  parseEnforcementSeedArgs,
  SeedArgsError,
  type EnforcementSeedArgs,
} from '../db/seed/enforcement-seed-args';
import { seedDemoLocations } from '../db/seed/demo-seed';
import { writePaymentHistory } from '../db/seed/payment-history';
import { seedRefundTickets } from '../db/seed/refund-tickets';

class CliError extends Error {}

/** PGlite keeps its folder to one process: writing beside a running API would corrupt or be lost. */
async function apiIsRunning(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

async function run(argv: string[]): Promise<void> {
  let args;
  try {
    args = parseEnforcementSeedArgs(argv);
  } catch (error) {
    if (error instanceof SeedArgsError) throw new CliError(`${error.message}\n\n${ENFORCEMENT_SEED_USAGE}`);
    throw error;
  }
  if (args.help) {
    console.info(ENFORCEMENT_SEED_USAGE);
    return;
  }
  const config = readServerConfig(process.env);
  if (!config.database.databaseUrl) {
    if (config.database.pgliteDir.startsWith('memory://')) {
      throw new CliError('PGLITE_DIR is memory://: the data would vanish when this command ends. Use a folder.');
    }
    if (await apiIsRunning(config.port)) {
      throw new CliError(
        `An API is answering on http://127.0.0.1:${config.port}, and PGlite (${config.database.pgliteDir}) can be ` +
          'opened by one process only. Stop it (Ctrl-C in `npm start`), run the seed, then start it again; or seed ' +
          'a PostgreSQL server through DATABASE_URL.',
      );
    }
  }

  const db = await openDatabase(config.database);
  try {
    await migrate(db);
    const { rows } = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM locations');
    if (rows[0]?.count === 0) {
      await seedDemoLocations(db);
      console.info('No locations yet: added the six demo locations.');
    }
    console.info(`Generating into ${describeDatabase(config.database)} (seed ${args.seed}, tie size ${args.tieSize})…`);
    const records = SYNC_TYPES.reduce((sum, type) => sum + args.counts[type], 0);
    if (records > 0 || args.reset) await writeEnforcementRecords(db, args);
    const payments = args.history ? await writeHistory(db, args, args.history) : 0;
    await writeRefundTickets(db, args, payments);
  } catch (error) {
    if (error instanceof EnforcementSeedError) throw new CliError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

async function writeEnforcementRecords(db: Db, args: EnforcementSeedArgs): Promise<void> {
  let reported = 0;
  const result = await generateEnforcementData(db, {
    counts: args.counts,
    seed: args.seed,
    tieSize: args.tieSize,
    locationIds: args.locationIds,
    now: args.now,
    reset: args.reset,
    onProgress: (written, total) => {
      if (written - reported >= 100_000 || written === total) {
        reported = written;
        console.info(`  ${written.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
      }
    },
  });
  const perType = SYNC_TYPES.map((type) => `${type} ${result.counts[type].toLocaleString('en-US')}`).join(', ');
  const rate = result.seconds > 0 ? Math.round(result.total / result.seconds).toLocaleString('en-US') : '–';
  console.info(
    `${args.reset ? 'Replaced all enforcement data with' : 'Added'} ${result.total.toLocaleString('en-US')} records ` +
      `at locations ${result.locationIds.join(', ')} in ${result.seconds.toFixed(1)} s (${rate} records/s): ${perType}.`,
  );
  console.info('Valid transactions expire within 24 h of generation; run the seed again (with --reset) for fresh ones.');
}

async function writeHistory(db: Db, args: EnforcementSeedArgs, history: NonNullable<EnforcementSeedArgs['history']>) {
  let reported = 0;
  const result = await writePaymentHistory(db, {
    ...history,
    seed: args.seed,
    now: args.now,
    locationIds: args.locationIds,
    onProgress: (written, total) => {
      if (written - reported >= 100_000 || written === total) {
        reported = written;
        console.info(`  ${written.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} payments`);
      }
    },
  });
  console.info(
    `Added ${result.payments.toLocaleString('en-US')} payments and ${result.refunds.toLocaleString('en-US')} refunds ` +
      `(the last ${history.days} day${history.days === 1 ? '' : 's'}) at locations ${result.locationIds.join(', ')} in ${result.seconds.toFixed(1)} s ` +
      `(${Math.round(result.rowsPerSecond).toLocaleString('en-US')} rows/s).`,
  );
  return result.payments;
}

/** Refund tickets on the payments there are: ~0.4 % of the history just written (20 to 2,000), else 40. */
async function writeRefundTickets(db: Db, args: EnforcementSeedArgs, payments: number) {
  const count = payments > 0 ? Math.min(2000, Math.max(20, Math.round(payments * 0.004))) : 40;
  const result = await seedRefundTickets(db, { count, seed: args.seed, now: args.now ?? new Date(), locationIds: args.locationIds });
  console.info(`Added ${result.tickets} refund tickets (${result.refunded} refunded, the rest open, approved or rejected).`);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof CliError ? error.message : error);
  process.exit(1);
});
