import pg from 'pg';
import type { Db, Queryable } from './db';

type Client = Pick<pg.PoolClient, 'query'> | pg.Pool;

function wrap(client: Client): Queryable {
  return {
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const result = await client.query(sql, params ? [...params] : undefined);
      return { rows: result.rows as T[] };
    },
    // Without parameters node-postgres uses the simple protocol, which accepts several statements at once.
    exec: async (sql) => {
      await client.query(sql);
    },
  };
}

/** A node-postgres pool, for a real PostgreSQL server (DATABASE_URL) and the integration tests. */
export function openPostgresDatabase(config: pg.PoolConfig): Db {
  const pool = new pg.Pool({ max: 5, ...config });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pool.on('error', (error) => console.error('[db] idle PostgreSQL client failed:', error.message));
  return {
    ...wrap(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
