import * as z from 'zod/mini';
import { segmentSchema } from '../../src/contract/mailing';
import type { Db } from '../db/db';
import { optOutSegmentBeyond } from '../db/mailings';
import type { ApiApp } from '../http/api-app';
import { failure } from '../http/responses';
import { isLoopback, remoteAddress } from './dev-reseed';

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
    if (!isLoopback(remoteAddress(c)) || c.req.header('Origin')) {
      return c.json(failure('Simulated opt-outs are only available to local tools on this machine.'), 403);
    }
    const parsed = z.safeParse(optOutSchema, await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return c.json(failure(`Invalid request body: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`), 400);
    }
    const optedOut = await optOutSegmentBeyond(db, parsed.data.segment, parsed.data.keep);
    return c.json({ success: true, data: { optedOut } }, 200);
  });
}
