/**
 * `npm run staff:relink -- <staff e-mail> (--account <e-mail> | --uid <uid> | --unlink) --by <your e-mail>`: binds a
 * staff row to another sign-in account, for an identity that was deleted and created again (docs/api.md "Identity
 * binding"). Writes to DATABASE_URL, or to PGlite in PGLITE_DIR when no API holds it open. --account asks
 * firebase-admin for the account (the emulator with FIREBASE_AUTH_EMULATOR_HOST, else the project's credentials).
 */
import { getAuth } from 'firebase-admin/auth';
import { firebaseApp } from '../auth/firebase-app';
import { readServerConfig } from '../config';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open-database';
import { RelinkError } from '../db/staff-identity';
import { parseRelinkArgs, relinkAsAdministrator, RELINK_USAGE } from './relink-command';

async function apiIsRunning(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1500) });
    return true;
  } catch {
    return false;
  }
}

async function run(argv: string[]): Promise<void> {
  if (argv.includes('--help')) return void console.info(RELINK_USAGE);
  const args = parseRelinkArgs(argv);
  const config = readServerConfig(process.env);
  if (!config.database.databaseUrl && (await apiIsRunning(config.port))) {
    throw new RelinkError(
      `An API is answering on port ${config.port} and PGlite (${config.database.pgliteDir}) opens in one process ` +
        'only: stop it, run this, then start it again.',
    );
  }
  const auth = getAuth(firebaseApp(config.firebaseProjectId));
  const db = await openDatabase(config.database);
  try {
    await migrate(db);
    console.info(await relinkAsAdministrator(db, args, (email) => auth.getUserByEmail(email)));
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof RelinkError) console.error(`${error.message}\n\n${RELINK_USAGE}`);
  else console.error(error);
  process.exit(1);
});
