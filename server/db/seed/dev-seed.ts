import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db';
import type { CreateIdentity } from '../staff-identity';
import { applyUserSeed, seedIdentity } from './apply-user-seed';
import { applyDemoSeed } from './demo-seed';
import { seedDemoRates } from './demo-rates';
import { parseSeedUsersFile, type SeedUser } from './user-seed-file';

export interface DevSeedReport {
  demoAccounts: number;
  files: { file: string; users: number }[];
  /** A broken extra file is reported and skipped, so one bad file cannot keep the API from starting. */
  failures: { file: string; message: string }[];
  /** Sign-in accounts in the Auth emulator: how many were seeded (created, or changed where they differ), or why not. */
  identities: { status: 'skipped' } | { status: 'done'; accounts: number } | { status: 'failed'; message: string };
}

export async function listSeedUserFiles(seedUsersDir: string): Promise<string[]> {
  await mkdir(seedUsersDir, { recursive: true });
  const names = await readdir(seedUsersDir);
  return names.filter((name) => name.endsWith('.json')).sort();
}

/**
 * What `npm start` applies in development (DEV_SEED=1) and POST /dev/reseed re-applies: the demo seed, then every
 * extra users file in .data/seed-users/. Database first, sign-in accounts last: an emulator that is down must not
 * leave the database half seeded.
 */
export async function applyDevSeed(
  db: Db,
  options: { seedUsersDir: string; createIdentity?: CreateIdentity | undefined },
): Promise<DevSeedReport> {
  const seeded: SeedUser[] = await applyDemoSeed(db);
  await seedDemoRates(db);
  const report: DevSeedReport = {
    demoAccounts: seeded.length,
    files: [],
    failures: [],
    identities: { status: 'skipped' },
  };
  for (const file of await listSeedUserFiles(options.seedUsersDir)) {
    try {
      const users = parseSeedUsersFile(await readFile(path.join(options.seedUsersDir, file), 'utf8'), file);
      seeded.push(...(await applyUserSeed(db, users, { source: file })));
      report.files.push({ file, users: users.length });
    } catch (error) {
      report.failures.push({ file, message: (error as Error).message });
    }
  }
  if (options.createIdentity) {
    try {
      // Later files override earlier ones for the same e-mail, as they do in the database.
      const byEmail = new Map(seeded.map((user) => [user.email, user]));
      for (const user of byEmail.values()) await seedIdentity(db, options.createIdentity, user);
      report.identities = { status: 'done', accounts: byEmail.size };
    } catch (error) {
      report.identities = { status: 'failed', message: (error as Error).message };
    }
  }
  return report;
}
