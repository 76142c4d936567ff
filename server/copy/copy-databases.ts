import type pg from 'pg';
import type { CopyDatabase } from '../../src/contract/database-copy';
import type { Db } from '../db/db';
import { migrate } from '../db/migrate';
import { openPostgresDatabase } from '../db/postgres';
import type { CopyEnd } from './copy-engine';

/** The databases Database Copy knows by name (server configuration; never a connection string from a request). */
export interface CopyDatabases {
  list(): CopyDatabase[];
  /** Opens (once) and returns the named database, or undefined when no database has that name. */
  open(name: string): Promise<CopyEnd | undefined>;
  close(): Promise<void>;
}

export interface PostgresCopyDatabase {
  name: string;
  production: boolean;
  clientConfig: pg.ClientConfig;
}

/** COPY_DATABASES: PostgreSQL servers by name; their pools are opened on first use and kept. */
export function postgresCopyDatabases(entries: readonly PostgresCopyDatabase[]): CopyDatabases {
  const pools = new Map<string, Db>();
  return {
    list: () => entries.map(({ name, production }) => ({ name, production, engine: 'postgres' as const })),
    open: async (name) => {
      const entry = entries.find((candidate) => candidate.name === name);
      if (!entry) return undefined;
      let db = pools.get(name);
      if (!db) {
        db = openPostgresDatabase({ ...entry.clientConfig, max: 2 });
        pools.set(name, db);
      }
      return { engine: 'postgres', db, clientConfig: entry.clientConfig };
    },
    close: async () => {
      await Promise.all([...pools.values()].map((db) => db.close()));
      pools.clear();
    },
  };
}

export const LOCAL_DATABASE = 'local';
export const STAGING_DATABASE = 'staging';

/**
 * Without PostgreSQL: the API's own database ("local") and a second PGlite ("staging") created and migrated on first
 * use, in `stagingDir` (`memory://` for one that lives as long as the process).
 */
export function localCopyDatabases(home: Db, stagingDir: string | undefined): CopyDatabases {
  let staging: Promise<Db> | undefined;
  const openStaging = () => {
    staging ??= (async () => {
      const { openPgliteDatabase } = await import('../db/pglite');
      const db = await openPgliteDatabase(stagingDir);
      await migrate(db);
      return db;
    })();
    return staging;
  };
  return {
    list: () => [
      { name: LOCAL_DATABASE, production: false, engine: 'pglite' },
      { name: STAGING_DATABASE, production: false, engine: 'pglite' },
    ],
    open: async (name) => {
      if (name === LOCAL_DATABASE) return { engine: 'pglite', db: home };
      if (name === STAGING_DATABASE) return { engine: 'pglite', db: await openStaging() };
      return undefined;
    },
    close: async () => {
      if (staging) await (await staging).close();
      staging = undefined;
    },
  };
}
