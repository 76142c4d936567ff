import * as z from 'zod/mini';
import { segmentSchema } from '../../src/contract/mailing';
import type { Db } from '../db/db';
import { optOutSegmentBeyond } from '../db/mailings';
import type { ApiApp } from '../http/api-app';
import { parseDevBody, refuseUnlessLocalTool } from './dev-tools';

export const DEV_MAILING_OPT_OUTS_PATH = '/dev/mailing-opt-outs';

const optOutSchema = z.strictObject({
  segment: segmentSchema,
  /** Members kept, the first by address; the rest opt out. */
  keep: z.int().check(z.nonnegative()),
});

/**
 * Development and test stacks only (registered with DEV_SEED=1, beside /dev/payments): opts out the members of a
 * segment beyond the first `keep`, as if they had unsubscribed (docs/mailing.md: how people opt out is outside the
 * console). The end-to-end test sizes its segment to exactly 500 with it. Only callers on this machine, never a web
 * page (browsers send Origin). Not in the OpenAPI document: production has no such call.
 */
export function registerDevMailingOptOutRoute(app: ApiApp, db: Db): void {
  app.post(DEV_MAILING_OPT_OUTS_PATH, async (c) => {
    const refused = refuseUnlessLocalTool(c, 'Simulated opt-outs are only available to local tools on this machine.');
    if (refused) return refused;
    const body = await parseDevBody(c, optOutSchema);
    if (body.refused) return body.refused;
    const optedOut = await optOutSegmentBeyond(db, body.data.segment, body.data.keep);
    return c.json({ success: true, data: { optedOut } }, 200);
  });
}
