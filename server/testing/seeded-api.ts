import { afterAll, beforeAll, expect } from 'vitest';
import { migrate } from '../db/migrate';
import { applyDemoSeed } from '../db/seed/demo-seed';
import { openTestDatabase, type Backend, type TestDatabase } from './test-database';
import { createTestApi } from './test-api';

/**
 * For a describe block: one migrated, demo-seeded database per backend (not per test, to keep the run fast) and the
 * app over it. Fails the block if any request ended in a server fault: bad input must never 500.
 */
export function useSeededApi(backend: Backend, overrides: Parameters<typeof createTestApi>[1] = {}) {
  const context = {} as { database: TestDatabase; api: ReturnType<typeof createTestApi> };
  beforeAll(async () => {
    context.database = await openTestDatabase(backend);
    await migrate(context.database.db);
    await applyDemoSeed(context.database.db);
    context.api = createTestApi(context.database.db, overrides);
  });
  afterAll(async () => {
    expect(context.api?.serverErrors ?? []).toEqual([]);
    await context.database?.dispose();
  });
  return context;
}
