import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { SESSION_HEADER } from '../../src/contract/envelope';
import { createApp } from '../app';
import type { Db } from '../db/db';
import { migrate } from '../db/migrate';
import { openPgliteDatabase } from '../db/pglite';
import { openPostgresDatabase } from '../db/postgres';
import { applyDemoSeed } from '../db/seed/demo-seed';
import {
  DEFAULT_RECORDS,
  generateEnforcementData,
  splitRecords,
  type EnforcementSeedResult,
  type TypeCounts,
} from '../db/seed/enforcement-data';
import { fakeVerifyIdToken, idTokenFor, TEST_SESSION_SECRET } from './test-api';

export interface BenchmarkApiOptions {
  /** Total records, split evenly over the five types (default 500); `counts` overrides single types. */
  records?: number;
  counts?: Partial<TypeCounts>;
  seed?: string | number;
  tieSize?: number;
  locationIds?: readonly number[];
  /** A fixed "now" for the data and the API's clock; default: the real clock for both. */
  now?: Date;
  /** A PostgreSQL database to fill instead of a fresh in-memory PGlite. Its enforcement data is replaced. */
  databaseUrl?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The files of a new PGlite cluster to start the in-memory database from (server/testing/pglite-image.ts). */
  pgliteImage?: Blob;
  /** Origins a browser-based benchmark page is served from (default: the console's dev origins). */
  corsOrigins?: readonly string[];
}

export interface BenchmarkApi {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  seeded: EnforcementSeedResult;
  db: Db;
  /**
   * Request headers for a demo account (default the superuser), session included. ID tokens are fake (`id:<email>`):
   * this API accepts them instead of Firebase's, which a benchmark has no use for.
   */
  headersFor(email?: string): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * The reference API in this process, over a database filled with generated enforcement data (demo locations and
 * accounts included), listening on 127.0.0.1: what a benchmark needs to sync against a realistic server.
 *
 *   const api = await startApiForBenchmark({ records: 100_000, seed: 7 });
 *   const headers = await api.headersFor('officer@example.com');
 *   … fetch(`${api.url}/enforcement/transactions`, { method: 'POST', headers, body }) …
 *   await api.stop();
 */
export async function startApiForBenchmark(options: BenchmarkApiOptions = {}): Promise<BenchmarkApi> {
  const db = options.databaseUrl
    ? openPostgresDatabase({ connectionString: options.databaseUrl })
    : await openPgliteDatabase(undefined, options.pgliteImage);
  try {
    await migrate(db);
    await applyDemoSeed(db);
    const seeded = await generateEnforcementData(db, {
      counts: { ...splitRecords(options.records ?? DEFAULT_RECORDS), ...options.counts },
      seed: options.seed,
      tieSize: options.tieSize,
      locationIds: options.locationIds,
      now: options.now,
      reset: true,
    });
    const fixedNow = options.now;
    const app = createApp({
      db,
      verifyIdToken: fakeVerifyIdToken,
      session: { secret: TEST_SESSION_SECRET, ttlSeconds: 24 * 3600 },
      corsOrigins: options.corsOrigins ?? ['http://localhost:5173', 'http://127.0.0.1:5173'],
      now: fixedNow ? () => fixedNow : undefined,
      logError: (message, error) => console.error(`[benchmark api] ${message}:`, error),
    });
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const headersFor = async (email = 'superuser@example.com') => {
      const authorization = `Bearer ${idTokenFor(email)}`;
      const response = await fetch(`${url}/auth/permissions`, {
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      const body = (await response.json()) as { data?: { userData: { token: string } }; message?: string };
      if (!response.ok || !body.data) throw new Error(`Sign-in of ${email} failed: ${body.message ?? response.status}`);
      return { Authorization: authorization, [SESSION_HEADER]: body.data.userData.token, 'Content-Type': 'application/json' };
    };

    const stop = async () => {
      await new Promise((resolve) => {
        server.close(resolve);
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await db.close();
    };
    return { url, seeded, db, headersFor, stop };
  } catch (error) {
    await db.close();
    throw error;
  }
}
