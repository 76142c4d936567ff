import type { DevSeedReport } from '../db/seed/dev-seed';
import type { ApiApp } from '../http/api-app';
import { refuseUnlessLocalTool } from './dev-tools';

export const DEV_RESEED_PATH = '/dev/reseed';

/**
 * Development only (registered when DEV_SEED=1): re-applies the demo seed and .data/seed-users/ so that
 * `npm run seed:users` takes effect without a restart. Only callers on this machine, and never a web page: browsers
 * send Origin on cross-site POSTs, the seed CLI does not. Left out of the OpenAPI document on purpose.
 */
export function registerDevReseedRoute(app: ApiApp, reseed: () => Promise<DevSeedReport>): void {
  app.post(DEV_RESEED_PATH, async (c) => {
    const refused = refuseUnlessLocalTool(c, 'Reseeding is only available to local tools on this machine.');
    if (refused) return refused;
    const report = await reseed();
    return c.json({ success: true, data: report }, 200);
  });
}
