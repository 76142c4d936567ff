import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findPostgresBinDir } from '../postgres-binaries';

/**
 * Global setup of the integration tests: a throwaway PostgreSQL cluster, so the API's SQL is proven on the real
 * engine as well as on PGlite. With DATABASE_URL already set, that server is used instead.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const TEST_DATABASE = 'lpa_test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Extensions the migrations use, installed once in `public` before any suite starts. Each suite migrates its own
 * schema (server/testing/test-database.ts) with `public` after it on the search path; were the migration's
 * `CREATE EXTENSION IF NOT EXISTS` left to the suites, the first would install pg_trgm in its own schema, the others
 * would skip it and then not find `gin_trgm_ops`, and the first suite's DROP SCHEMA … CASCADE would remove it.
 */
async function installSharedExtensions(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) {
    await installSharedExtensions(process.env.DATABASE_URL);
    project.provide('databaseUrl', process.env.DATABASE_URL);
    return undefined;
  }
  const binDir = findPostgresBinDir();
  if (!binDir) {
    throw new Error(
      'The integration tests need PostgreSQL server binaries (initdb, pg_ctl) and none were found via pg_config, ' +
        '/usr/lib/postgresql/*/bin or PATH. Install PostgreSQL (e.g. `apt-get install postgresql`), or set ' +
        'DATABASE_URL to a server the tests may create schemas in.',
    );
  }

  const workDir = mkdtempSync(path.join(tmpdir(), 'lpa-pg-'));
  const dataDir = path.join(workDir, 'data');
  // initdb refuses to run as root: hand the folder to the postgres user and run the tools as that user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(workDir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(binDir, tool);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: 'pipe', cwd: workDir });
  };

  const port = await freePort();
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
    // Durability settings off: the cluster is thrown away, speed matters.
    const durabilityOff = '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
    const serverOptions = `-h 127.0.0.1 -p ${port} -k ${workDir} ${durabilityOff}`;
    run('pg_ctl', ['-D', dataDir, '-l', path.join(workDir, 'postgres.log'), '-o', serverOptions, '-w', 'start']);
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`Could not start a throwaway PostgreSQL cluster: ${(error as Error).message}\n${stderr}`);
  }

  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEST_DATABASE}`);
  await admin.end();
  const databaseUrl = `postgresql://postgres@127.0.0.1:${port}/${TEST_DATABASE}`;
  await installSharedExtensions(databaseUrl);
  project.provide('databaseUrl', databaseUrl);

  return () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
}
