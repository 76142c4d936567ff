import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './db';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const MIGRATION_FILE = /^\d{3}_[a-z0-9_]+\.sql$/;
/** Arbitrary key of the advisory lock that keeps two starting servers from migrating at once. */
const MIGRATION_LOCK_KEY = 4_127_301;

export interface Migration {
  name: string;
  sql: string;
}

/** The plain SQL files of server/db/migrations, in the order their NNN_ prefix gives. */
export async function loadMigrations(): Promise<Migration[]> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => MIGRATION_FILE.test(name)).sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(new URL(name, MIGRATIONS_DIR), 'utf8') })));
}

/**
 * Applies the migrations not yet recorded in schema_migrations, all in one transaction: either the schema moves to
 * the newest version or it stays where it was. Returns the names applied now (empty when up to date).
 */
export async function migrate(db: Db, migrations?: readonly Migration[]): Promise<string[]> {
  const pending = migrations ?? (await loadMigrations());
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name       text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ name: string }>('SELECT name FROM schema_migrations');
    const done = new Set(rows.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of pending) {
      if (done.has(migration.name)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}
