import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { DevSeedReport } from '../db/seed/dev-seed';
import type { ApiApp } from '../http/api-app';
import { failure } from '../http/responses';

export const DEV_RESEED_PATH = '/dev/reseed';

export function isLoopback(address: string | undefined): boolean {
  return address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

export function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (e.g. app.request in tests without a socket): the caller is unknown.
    return undefined;
  }
}

/**
 * Development only (registered when DEV_SEED=1): re-applies the demo seed and .data/seed-users/ so that
 * `npm run seed:users` takes effect without a restart. Only callers on this machine, and never a web page: browsers
 * send Origin on cross-site POSTs, the seed CLI does not. Left out of the OpenAPI document on purpose.
 */
export function registerDevReseedRoute(app: ApiApp, reseed: () => Promise<DevSeedReport>): void {
  app.post(DEV_RESEED_PATH, async (c) => {
    if (!isLoopback(remoteAddress(c)) || c.req.header('Origin')) {
      return c.json(failure('Reseeding is only available to local tools on this machine.'), 403);
    }
    const report = await reseed();
    return c.json({ success: true, data: report }, 200);
  });
}
