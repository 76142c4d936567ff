import pg from 'pg';
import type { Db, Queryable, QueryOptions } from './db';

type Client = Pick<pg.PoolClient, 'query'> | pg.Pool;

function wrap(client: Client): Queryable {
  return {
    query: async <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      const values = params ? [...params] : undefined;
      const result = await (options?.prepare
        ? client.query({ name: options.prepare, text: sql, values })
        : client.query(sql, values));
      return { rows: result.rows as T[] };
    },
    // Without parameters node-postgres uses the simple protocol, which accepts several statements at once.
    exec: async (sql) => {
      await client.query(sql);
    },
  };
}

/** The connection settings of a database opened here; undefined for PGlite. */
const connectionConfigs = new WeakMap<Db, pg.ClientConfig>();

/**
 * For work that needs a connection of its own outside the pool (the mail sender's COMMIT-then-final-dot step, its
 * job lock): the settings `db` was opened with, or undefined when `db` is not PostgreSQL.
 */
export function postgresConfigOf(db: Db): pg.ClientConfig | undefined {
  return connectionConfigs.get(db);
}

/** A node-postgres pool, for a real PostgreSQL server (DATABASE_URL) and the integration tests. */
export function openPostgresDatabase(config: pg.PoolConfig): Db {
  const db = openPool(config);
  connectionConfigs.set(db, config);
  return db;
}

function openPool(config: pg.PoolConfig): Db {
  const pool = new pg.Pool({ max: 5, ...config });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pool.on('error', (error) => console.error('[db] idle PostgreSQL client failed:', error.message));
  return {
    ...wrap(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      // A connection lost while checked out (server restart, pg_terminate_backend) is also emitted as 'error' on the
      // client, outside the pool's idle listener: unheard, it would crash the process. The query fails anyway.
      let lost: Error | undefined;
      const onLost = (error: Error) => {
        lost = error;
      };
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onLost);
        // A lost connection goes, not back to the pool.
        client.release(lost);
      }
    },
    close: () => pool.end(),
  };
}
