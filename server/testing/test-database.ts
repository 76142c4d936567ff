import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../db/db';
import { openPgliteDatabase } from '../db/pglite';
import { openPostgresDatabase } from '../db/postgres';
import { readPgliteImage } from './pglite-image';

/** The integration suites run once per engine: PGlite in memory, and the PostgreSQL of test/setup/postgres.ts. */
export const BACKENDS = ['pglite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface TestDatabase {
  db: Db;
  dispose: () => Promise<void>;
}

let emptyCluster: Promise<Blob | undefined> | undefined;

/** The files of a new PGlite cluster, made once for the run (test/setup/pglite-image.ts); none outside integration. */
function emptyPgliteCluster(): Promise<Blob | undefined> {
  const file = inject('pgliteImage');
  emptyCluster ??= file ? readPgliteImage(file) : Promise.resolve(undefined);
  return emptyCluster;
}

/**
 * A fresh, empty database: in-memory PGlite (started from a new cluster's files when the run made them), or a new
 * schema (via search_path) in the shared PostgreSQL, with `public` behind it for the extensions
 * test/setup/postgres.ts installs once.
 */
export async function openTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const db = await openPgliteDatabase(undefined, await emptyPgliteCluster());
    return { db, dispose: () => db.close() };
  }
  const connectionString = inject('databaseUrl');
  const schema = `suite_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgresDatabase({ connectionString, options: `-c search_path=${schema},public`, max: 3 });
  return {
    db,
    dispose: async () => {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** Connection options for another pool over the same suite schema as `db` (PostgreSQL): its search path, unspaced. */
export async function sameSchemaOptions(db: Db): Promise<string> {
  const { rows } = await db.query<{ search_path: string }>('SHOW search_path');
  return `-c search_path=${rows[0]!.search_path.replace(/\s+/g, '')}`;
}
