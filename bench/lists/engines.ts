/**
 * The list bench's engines (bench/lists.bench.ts): PostgreSQL and PGlite with the same seeded payments, the real app
 * over each, signed in as each persona, every database call of a request recorded for the replay baseline.
 */
import { SESSION_HEADER } from '../../src/contract/envelope';
import { createApp } from '../../server/app';
import type { Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from '../../server/testing/test-api';
import { OPERATOR_LOCATION_COUNT, PERSONAS, seedOperatorDatabase, type Persona } from '../lib/operator-data';
import { recordingDb } from '../lib/sql-replay';

export type EngineName = 'postgres' | 'pglite';

export interface Engine {
  name: EngineName;
  label: string;
  /** The database without recording: the replay runs on it (the same pool as the app's). */
  db: Db;
  recorder: ReturnType<typeof recordingDb>;
  app: ReturnType<typeof createApp>;
  headers: Record<Persona, Record<string, string>>;
  seedSeconds: number | null;
  firstTransactionId: number;
  /** `SELECT version()`, shortened. */
  version: string;
  /** For the CSV process: where the API finds the same database. */
  target: { databaseUrl: string } | { pgliteDir: string };
}

export interface SeedOptions {
  rows: number;
  days: number;
  seed: string;
  now: Date;
  step: (message: string) => void;
}

/** The data's fingerprint: a reused database must hold exactly what this run would seed. */
async function seededRows(db: Db): Promise<{ count: number; first: number } | null> {
  const { rows } = await db.query<{ exists: boolean }>(`SELECT to_regclass('transactions') IS NOT NULL AS exists`);
  if (!rows[0]?.exists) return null;
  const counted = await db.query<{ count: number; first: number | null }>(
    'SELECT count(*)::float8 AS count, min(transaction_id)::float8 AS first FROM transactions',
  );
  const { count, first } = counted.rows[0]!;
  return count === 0 ? null : { count, first: first ?? 0 };
}

async function seedOrReuse(db: Db, label: string, options: SeedOptions) {
  const { rows, days, seed, now, step } = options;
  let present = await seededRows(db);
  if (present && present.count !== rows) {
    throw new Error(`${label} already holds ${present.count} payments, not ${rows}: give an empty database or folder.`);
  }
  if (present) {
    // Reused: bring the schema up to date (a new migration's indexes are built here) and refresh statistics.
    const applied = await migrate(db);
    await db.exec('ANALYZE');
    step(`${label}: reusing ${present.count.toLocaleString('en-US')} payments${applied.length ? `, applied ${applied.join(', ')}` : ''}`);
    return { present, seedSeconds: null };
  }
  step(`${label}: seeding ${rows.toLocaleString('en-US')} payments over ${OPERATOR_LOCATION_COUNT} locations and ${days} days`);
  let reported = 0;
  const result = await seedOperatorDatabase(db, {
    rows,
    days,
    seed,
    now,
    onProgress: (written, total) => {
      if (written - reported >= total / 4 || written === total) {
        reported = written;
        step(`${label}: ${written.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} written`);
      }
    },
  });
  step(
    `${label}: seeded in ${result.seconds.total.toFixed(1)} s (history ${result.seconds.history.toFixed(1)} s incl. ` +
      `index builds, ${result.history.refunds.toLocaleString('en-US')} refunds; VACUUM ANALYZE ${result.seconds.vacuum.toFixed(1)} s)`,
  );
  present = (await seededRows(db))!;
  return { present, seedSeconds: result.seconds.total };
}

export async function prepareEngine(name: EngineName, db: Db, target: Engine['target'], label: string, options: SeedOptions): Promise<Engine> {
  const { present, seedSeconds } = await seedOrReuse(db, label, options);
  const recorder = recordingDb(db);
  const app = createApp({
    db: recorder.db,
    verifyIdToken: fakeVerifyIdToken,
    session: { secret: TEST_SESSION_SECRET, ttlSeconds: 24 * 3600 },
    corsOrigins: [],
    now: () => options.now,
    logError: (message, error) => console.error(`[${label} api] ${message}:`, error),
  });
  const headers = {} as Engine['headers'];
  for (const persona of Object.keys(PERSONAS) as Persona[]) {
    const email = PERSONAS[persona];
    const authorization = `Bearer ${idTokenFor(email)}`;
    const response = await app.request('/auth/permissions', {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json()) as { data?: { userData: { token: string } }; message?: string };
    if (!body.data) throw new Error(`${label}: sign-in of ${email} failed: ${body.message ?? response.status}`);
    headers[persona] = { Authorization: authorization, [SESSION_HEADER]: body.data.userData.token };
  }
  const { rows: versions } = await db.query<{ version: string }>('SELECT version()');
  const version = (versions[0]?.version ?? '').replace(/ on .*$/, '');
  return { name, label, db, recorder, app, headers, seedSeconds, firstTransactionId: present.first, target, version };
}
