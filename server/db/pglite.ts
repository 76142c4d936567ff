import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable } from './db';

/**
 * PGlite keeps the whole database in one process, so `npm start` needs no PostgreSQL installed. Without a directory,
 * or with `memory://`, the database lives in memory (tests, throwaway runs). `image` starts it from a copy of another
 * one's files (`dumpDataDir`) instead of creating a cluster, which is most of the cost of opening a new one.
 */
export async function openPgliteDatabase(dataDir?: string, image?: Blob): Promise<Db> {
  if (dataDir && !dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  // pg_trgm backs the transaction search's plate fragments (migration 003), as on a real PostgreSQL.
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm }, ...(image ? { loadDataDir: image } : {}) });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const result = await target.query<T>(sql, params ? [...params] : undefined);
      return { rows: result.rows };
    },
    exec: async (sql) => {
      await target.exec(sql);
    },
  });
  return {
    ...wrap(pglite),
    // PGlite queues every other query behind an open transaction, so requests never run inside someone else's.
    transaction: (work) => pglite.transaction((tx) => work(wrap(tx))),
    close: () => pglite.close(),
  };
}
