import type { Db } from '../db/db';

/**
 * Counts every committed row write in the database's own schema (a trigger on each table adds one per row inserted,
 * updated or deleted, and one per TRUNCATE), so a test can tell with a single cheap read whether a request wrote
 * anything. Writes rolled back are not counted: the count is a row of the same transaction. For tests only: it is
 * added after migrations and makes every write a little slower.
 */
export async function installWriteCounter(db: Db): Promise<{ read: () => Promise<number> }> {
  await db.exec(`
    CREATE TABLE test_write_count (n bigint NOT NULL);
    INSERT INTO test_write_count VALUES (0);
    CREATE FUNCTION test_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE test_write_count SET n = n + 1;
      RETURN NULL;
    END $$;
  `);
  // Tables of this schema (PostgreSQL: the suite's own, first on the search path), partitions through their parent.
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND c.relname <> 'test_write_count'`,
  );
  for (const { name } of rows) {
    const table = `"${name.replaceAll('"', '""')}"`;
    await db.exec(`
      CREATE TRIGGER test_count_row_writes AFTER INSERT OR UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION test_count_write();
      CREATE TRIGGER test_count_truncates AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION test_count_write();
    `);
  }
  return {
    read: async () => Number((await db.query<{ n: string }>('SELECT n FROM test_write_count')).rows[0]!.n),
  };
}
