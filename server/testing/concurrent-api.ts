import { inject } from 'vitest';
import type { Db } from '../db/db';
import { openPostgresDatabase } from '../db/postgres';
import { createTestApi } from './test-api';
import { sameSchemaOptions, type Backend } from './test-database';

/**
 * A PostgreSQL pool of its own over the suite's schema, so that concurrent requests really run side by side (the
 * suite's pool has 3 connections), and an app over it. On PGlite the suite's own database serves (one at a time).
 */
export async function concurrentApi(backend: Backend, db: Db) {
  if (backend === 'pglite') return { api: createTestApi(db), close: async () => undefined, pool: undefined };
  const schemaOptions = await sameSchemaOptions(db);
  const pool = openPostgresDatabase({
    connectionString: inject('databaseUrl'),
    options: schemaOptions,
    max: 16,
  });
  return { api: createTestApi(pool), close: () => pool.close(), pool };
}
