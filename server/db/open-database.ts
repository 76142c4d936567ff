import type { Db } from './db';
import { openPostgresDatabase } from './postgres';

export interface DatabaseSettings {
  /** When set, the API uses this PostgreSQL server. */
  databaseUrl?: string | undefined;
  /** Otherwise PGlite keeps its files here (`memory://` for none). */
  pgliteDir: string;
}

export function describeDatabase(settings: DatabaseSettings): string {
  if (!settings.databaseUrl) return `PGlite at ${settings.pgliteDir}`;
  const url = new URL(settings.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

export async function openDatabase(settings: DatabaseSettings): Promise<Db> {
  if (settings.databaseUrl) return openPostgresDatabase({ connectionString: settings.databaseUrl });
  // Loaded only when used: PGlite's module alone took ~0.4 s of every start on PostgreSQL.
  const { openPgliteDatabase } = await import('./pglite');
  return openPgliteDatabase(settings.pgliteDir);
}
