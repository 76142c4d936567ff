import * as z from 'zod/mini';
import type { ApiApp } from '../http/api-app';
import { failure } from '../http/responses';
import { refuseUnlessLocalTool } from './dev-tools';

export const DEV_RATES_CLOCK_PATH = '/dev/rates-clock';

/** At most a year either way: enough to pass any schedule a test makes, not a way to wander off. */
const MAX_OFFSET_MS = 366 * 24 * 3_600_000;
const bodySchema = z.strictObject({ offsetMs: z.int().check(z.gte(-MAX_OFFSET_MS), z.lte(MAX_OFFSET_MS)) });

/**
 * The clock of the rates routes, ahead of the server's by an offset that a test sets (docs/rates.md "Storage and the
 * schedule": a change takes effect when this clock reaches it). Sessions, audit of other sections and everything else
 * keep the real clock, so moving it does not sign anyone out.
 */
export function devRatesClock(base: () => Date) {
  let offsetMs = 0;
  return {
    now: () => new Date(base().getTime() + offsetMs),
    offsetMs: () => offsetMs,
    set: (next: number) => {
      offsetMs = next;
    },
  };
}
export type DevRatesClock = ReturnType<typeof devRatesClock>;

/**
 * Development and end-to-end stacks only (registered when DEV_SEED=1, like /dev/reseed): POST {"offsetMs": n} sets
 * how far the rates' clock runs ahead; 0 puts it back. Only callers on this machine, never a web page (no Origin).
 * Left out of the OpenAPI document on purpose.
 */
export function registerDevRatesClockRoute(app: ApiApp, clock: DevRatesClock): void {
  app.post(DEV_RATES_CLOCK_PATH, async (c) => {
    const refused = refuseUnlessLocalTool(c, 'The rates clock is only available to local tools on this machine.');
    if (refused) return refused;
    const parsed = z.safeParse(bodySchema, await c.req.json().catch(() => null));
    if (!parsed.success) return c.json(failure(`offsetMs must be a whole number of milliseconds within ±${MAX_OFFSET_MS}.`), 400);
    clock.set(parsed.data.offsetMs);
    return c.json({ success: true, data: { offsetMs: clock.offsetMs(), now: clock.now().toISOString() } }, 200);
  });
}
