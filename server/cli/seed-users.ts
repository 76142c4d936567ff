/**
 * `npm run seed:users -- <file.json>`: adds extra development accounts (format: docs/api.md, "Extra seed users").
 * Validates the file, keeps a copy in .data/seed-users/ (applied on every `npm start` with DEV_SEED=1), and applies
 * it now when it can: through a running local API (POST /dev/reseed), or straight to DATABASE_URL when no API runs.
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createEmulatorIdentities } from '../auth/firebase-identities';
import { readServerConfig, SEED_USERS_DIR } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open-database';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import type { DevSeedReport } from '../db/seed/dev-seed';
import { parseSeedUsersFile, SeedFileError, type SeedUser } from '../db/seed/user-seed-file';
import { DEV_RESEED_PATH } from '../routes/dev-reseed';

class CliError extends Error {}

async function readUsers(file: string): Promise<SeedUser[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseSeedUsersFile(text, file);
  } catch (error) {
    if (error instanceof SeedFileError) throw new CliError(`${error.message}\nNothing was written.`);
    throw error;
  }
}

type ApiAnswer = { kind: 'absent' } | { kind: 'no-dev-seed' } | { kind: 'applied'; report: DevSeedReport };

/** Asks a locally running API to re-apply every seed file. A short health probe first: no API, no waiting. */
async function reseedThroughApi(port: number): Promise<ApiAnswer> {
  const base = `http://127.0.0.1:${port}`;
  try {
    await fetch(`${base}/health`, { signal: AbortSignal.timeout(1500) });
  } catch {
    return { kind: 'absent' };
  }
  // Creating emulator accounts for every seeded user can take a few seconds.
  const response = await fetch(`${base}${DEV_RESEED_PATH}`, { method: 'POST', signal: AbortSignal.timeout(60_000) });
  if (response.status === 404) return { kind: 'no-dev-seed' };
  const body = (await response.json()) as { success: boolean; data?: DevSeedReport; message?: string };
  if (!response.ok || !body.data) throw new CliError(`The API refused to reseed: ${body.message ?? response.status}`);
  return { kind: 'applied', report: body.data };
}

async function applyToDatabase(databaseUrl: string, pgliteDir: string, users: SeedUser[], source: string) {
  const db = await openDatabase({ databaseUrl, pgliteDir });
  try {
    await migrate(db);
    const projectId = readServerConfig(process.env).firebaseProjectId;
    const createIdentity = process.env.FIREBASE_AUTH_EMULATOR_HOST ? createEmulatorIdentities(projectId) : undefined;
    await applyUserSeed(db, users, { source, createIdentity });
  } finally {
    await db.close();
  }
}

async function run(args: string[]): Promise<void> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0 || file.startsWith('-')) {
    throw new CliError('Usage: npm run seed:users -- <users.json>   (format: docs/api.md, "Extra seed users")');
  }
  const users = await readUsers(file);
  const config = readServerConfig(process.env);
  const saved = path.join(SEED_USERS_DIR, path.basename(file));
  await mkdir(SEED_USERS_DIR, { recursive: true });
  const alreadySaved = path.resolve(file) === saved;
  if (!alreadySaved) await copyFile(file, saved);
  console.info(`Valid: ${users.length} user(s). Saved as ${path.relative(process.cwd(), saved)}.`);

  const answer = await reseedThroughApi(config.port);
  if (answer.kind === 'applied') {
    const failure = answer.report.failures.find((entry) => entry.file === path.basename(saved));
    if (failure) {
      if (!alreadySaved) await rm(saved);
      throw new CliError(`The API could not apply it, so it was not kept:\n${failure.message}`);
    }
    const identities = answer.report.identities;
    console.info('Applied by the running API (database and, when the emulator runs, sign-in accounts).');
    if (identities.status === 'failed') console.warn(`Sign-in accounts were not updated: ${identities.message}`);
    return;
  }
  if (answer.kind === 'no-dev-seed') {
    console.info(
      `The API on port ${config.port} runs without DEV_SEED=1; restart it with DEV_SEED=1 to apply the file.`,
    );
    return;
  }
  if (config.database.databaseUrl) {
    try {
      await applyToDatabase(config.database.databaseUrl, config.database.pgliteDir, users, path.basename(file));
    } catch (error) {
      if (!alreadySaved) await rm(saved);
      throw new CliError(`Could not apply it to DATABASE_URL, so it was not kept:\n${(error as Error).message}`);
    }
    console.info('No API running: applied directly to DATABASE_URL.');
    return;
  }
  console.info('No API running: it will be applied on the next `npm start`.');
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof CliError ? error.message : error);
  process.exit(1);
});
