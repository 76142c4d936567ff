/**
 * The reference API alone in its own process, for benchmarks that sample the server's memory from outside
 * (bench/lib/api-process.ts starts it). Argument: JSON of ApiProcessOptions. Prints `{"port":N}` once listening.
 * Sign-in uses the fake verifier of the tests (ID token `id:<email>`), as server/testing/benchmark-api.ts does.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app';
import { openDatabase } from '../../server/db/open-database';
import { fakeVerifyIdToken, TEST_SESSION_SECRET } from '../../server/testing/test-api';
import type { ApiProcessOptions } from './api-process-options';

const options = JSON.parse(process.argv[2] ?? '{}') as ApiProcessOptions;
const db = await openDatabase({ databaseUrl: options.databaseUrl, pgliteDir: options.pgliteDir ?? 'memory://' });
const now = new Date(options.now);
const app = createApp({
  db,
  verifyIdToken: fakeVerifyIdToken,
  session: { secret: TEST_SESSION_SECRET, ttlSeconds: 24 * 3600 },
  corsOrigins: [],
  now: () => now,
  logError: (message, error) => console.error(`[api process] ${message}:`, error),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`${JSON.stringify({ port: info.port })}\n`);
});
const shutdown = () => {
  server.close();
  void db.close().finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
