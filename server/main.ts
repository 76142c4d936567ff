import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createEmulatorIdentities, waitForAuthEmulator } from './auth/firebase-identities';
import { createFirebaseVerifier } from './auth/firebase-verifier';
import { firebaseStaffAccounts } from './auth/staff-accounts';
import { loadSessionSecret } from './auth/session-secret';
import { readServerConfig, SEED_USERS_DIR, SESSION_SECRET_FILE, type ServerConfig } from './config';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { scheduleIdempotencyKeyPurge } from './db/idempotency-keys';
import { describeDatabase, openDatabase } from './db/open-database';
import { localCopyDatabases, postgresCopyDatabases, type CopyDatabases } from './copy/copy-databases';
import { failInterruptedCopies } from './db/database-copies';
import type { CreateIdentity } from './db/staff-identity';
import { ensureDemoEnforcementData, ensureDemoPaymentHistory } from './db/seed/demo-enforcement';
import { applyDevSeed, type DevSeedReport } from './db/seed/dev-seed';
import { ensureDemoParkerEmails } from './db/seed/demo-mailing';
import { MailingRunner } from './mailing/runner';

/** `firebase emulators:start` may still be booting when the API starts alongside it. */
const AUTH_EMULATOR_WAIT_MS = 30_000;

function logSeedReport(report: DevSeedReport): void {
  const files = report.files.map(({ file, users }) => `${file} (${users})`).join(', ') || 'none';
  console.info(`[seed] ${report.demoAccounts} demo accounts; extra files: ${files}`);
  for (const { file, message } of report.failures) console.error(`[seed] skipped ${file}: ${message}`);
  if (report.identities.status === 'done')
    console.info(`[seed] ${report.identities.accounts} emulator sign-in accounts ready`);
  if (report.identities.status === 'failed')
    console.error(`[seed] emulator accounts failed: ${report.identities.message}`);
}

/** DEV_SEED=1: demo data and extra users into the database, and their sign-in accounts into the Auth emulator. */
async function startDevSeed(db: Db, config: ServerConfig): Promise<() => Promise<DevSeedReport>> {
  let createIdentity: CreateIdentity | undefined;
  if (config.authEmulatorHost) {
    if (await waitForAuthEmulator(config.authEmulatorHost, AUTH_EMULATOR_WAIT_MS)) {
      createIdentity = createEmulatorIdentities(config.firebaseProjectId);
    } else {
      console.warn(`[seed] Auth emulator at ${config.authEmulatorHost} did not answer; sign-in accounts not created.`);
    }
  } else {
    console.warn('[seed] FIREBASE_AUTH_EMULATOR_HOST is not set: seeding the database only, no sign-in accounts.');
  }
  const reseed = () => applyDevSeed(db, { seedUsersDir: SEED_USERS_DIR, createIdentity });
  logSeedReport(await reseed());
  const enforcement = await ensureDemoEnforcementData(db, config.devSeedRecords);
  if (enforcement) console.info(`[seed] ${enforcement.total} enforcement records generated around now`);
  const mailing = await ensureDemoParkerEmails(db);
  if (mailing.addressed) console.info(`[seed] ${mailing.addressed} parker rows given e-mails, ${mailing.optedOut} opted out`);
  const history = await ensureDemoPaymentHistory(db, {
    days: config.devSeedHistoryDays,
    paymentsPerDay: config.devSeedHistoryPerDay,
  });
  if (history) {
    console.info(
      `[seed] ${history.payments} payments (${history.refunds} refunds) of the last ${config.devSeedHistoryDays} days ` +
        `generated in ${history.seconds.toFixed(1)} s (${Math.round(history.rowsPerSecond)} rows/s)`,
    );
  }
  return async () => {
    const report = await reseed();
    logSeedReport(report);
    return report;
  };
}

/** COPY_DATABASES when set; otherwise with PGlite this database and a staging PGlite beside it (docs/database-copy.md). */
function copyDatabasesOf(config: ServerConfig, db: Db): CopyDatabases {
  const { databases } = config.databaseCopy;
  if (databases.length > 0) {
    return postgresCopyDatabases(
      databases.map(({ name, url, production }) => ({ name, production, clientConfig: { connectionString: url } })),
    );
  }
  const { databaseUrl, pgliteDir } = config.database;
  if (databaseUrl) {
    return postgresCopyDatabases([{ name: 'local', production: false, clientConfig: { connectionString: databaseUrl } }]);
  }
  return localCopyDatabases(db, pgliteDir.startsWith('memory://') ? 'memory://' : `${pgliteDir}-staging`);
}

async function main(): Promise<void> {
  const config = readServerConfig(process.env);
  const db = await openDatabase(config.database);
  const applied = await migrate(db);
  const interrupted = await failInterruptedCopies(db);
  if (interrupted > 0) console.warn(`[copy] ${interrupted} database copy marked failed: the API stopped during it`);
  console.info(`[db] ${describeDatabase(config.database)}; migrations applied now: ${applied.join(', ') || 'none'}`);
  const devReseed = config.devSeed ? await startDevSeed(db, config) : undefined;

  if (!config.authEmulatorHost && config.firebaseProjectId.startsWith('demo-')) {
    console.warn(`[auth] ${config.firebaseProjectId} is a demo project: set FIREBASE_AUTH_EMULATOR_HOST to sign in.`);
  }
  const secret = await loadSessionSecret({
    configured: config.session.configuredSecret,
    secretFile: SESSION_SECRET_FILE,
    allowGenerated: config.session.allowGeneratedSecret,
  });
  const mailingRunner = new MailingRunner({ db, settings: config.mail });
  const app = createApp({
    db,
    verifyIdToken: createFirebaseVerifier(config.firebaseProjectId),
    session: { secret, ttlSeconds: config.session.ttlSeconds },
    corsOrigins: config.corsOrigins,
    devReseed,
    staffAccounts: firebaseStaffAccounts(config.firebaseProjectId),
    copyDatabases: copyDatabasesOf(config, db),
    productionAdminHost: config.databaseCopy.productionAdminHost,
    mailer: { settings: config.mail, runner: mailingRunner },
    apiReferencePage: config.apiReferencePage,
  });
  // Resumes any mailing a stopped or killed process left unfinished (docs/mailing.md).
  mailingRunner.start();
  const stopKeyPurge = scheduleIdempotencyKeyPurge(db, () => new Date(), (error) =>
    console.error('[db] idempotency key purge failed:', error instanceof Error ? error.message : error),
  );

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    const reference = config.apiReferencePage ? ', reference page: /reference' : '';
    console.info(`[api] Lightning Pay Admin API listening on http://${host}:${info.port} (OpenAPI: /openapi.json${reference})`);
  });
  server.on('error', async (error) => {
    console.error(`[api] cannot listen on ${config.host}:${config.port}: ${error.message}`);
    await db.close();
    process.exit(1);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.info(`[api] ${signal}: shutting down`);
    // Let requests in flight finish, but not for long: a keep-alive browser connection would hold close() open.
    const closed = new Promise((resolve) => server.close(resolve));
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 3000))]);
    // Messages in flight are finished (or left for the next start), never cut between the commit and the dot.
    await mailingRunner.stop();
    stopKeyPurge();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`[api] failed to start: ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof Error && error.name === 'ConfigError')) console.error(error);
  process.exit(1);
});
