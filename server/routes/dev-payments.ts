import * as z from 'zod/mini';
import type { Db } from '../db/db';
import type { ApiApp } from '../http/api-app';
import { failure } from '../http/responses';
import { parseDevBody, refuseUnlessLocalTool } from './dev-tools';

export const DEV_PAYMENTS_PATH = '/dev/payments';

const devPaymentSchema = z.strictObject({
  locationId: z.int().check(z.positive()),
  amountCents: z.int().check(z.positive(), z.lte(99_999_999)),
  method: z.optional(z.enum(['card', 'apple_pay', 'google_pay', 'cash', 'account'])),
  /** How long the stay lasts (default 60 minutes). */
  minutes: z.optional(z.int().check(z.positive(), z.lte(24 * 60))),
  plate: z.optional(z.string().check(z.regex(/^[A-Z0-9]{2,8}$/))),
});
export type DevPayment = z.infer<typeof devPaymentSchema>;

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * Development and test stacks only (registered with DEV_SEED=1, beside /dev/reseed): records one payment now, as a
 * pay station or the parker app would, so that `npm run simulate:payments` and the end-to-end tests can watch the
 * dashboards move. Only callers on this machine, never a web page (browsers send Origin). Card, Apple Pay and
 * Google Pay pay 30¢ + 2.9 % like the generated history. Not in the OpenAPI document: production has no such call.
 */
export function registerDevPaymentRoute(app: ApiApp, db: Db, now: () => Date): void {
  app.post(DEV_PAYMENTS_PATH, async (c) => {
    const refused = refuseUnlessLocalTool(c, 'Simulated payments are only available to local tools on this machine.');
    if (refused) return refused;
    const body = await parseDevBody(c, devPaymentSchema);
    if (body.refused) return body.refused;
    const payment = body.data;
    const method = payment.method ?? 'card';
    const feeCents = method === 'cash' || method === 'account' ? 0 : 30 + Math.round(payment.amountCents * 0.029);
    const plate = payment.plate ?? `SIM${Math.floor(Math.random() * 10_000).toString().padStart(4, '0')}`;
    const { rows } = await db.query<{ transaction_id: number }>(
      `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee,
         payment_method, processor_reference, updated_at)
       SELECT location_id, $2, $3::timestamptz, $3::timestamptz + make_interval(mins => $4), $5::numeric, $6::numeric,
              $7, CASE WHEN $7 IN ('cash', 'account') THEN NULL ELSE 'ch_sim_' || md5(random()::text) END,
              extract(epoch FROM $3::timestamptz)::bigint
         FROM locations WHERE location_id = $1
       RETURNING transaction_id::float8 AS transaction_id`,
      [payment.locationId, plate, now().toISOString(), payment.minutes ?? 60, money(payment.amountCents), money(feeCents), method],
    );
    const created = rows[0];
    if (!created) return c.json(failure(`No location with id ${payment.locationId}.`), 404);
    return c.json({ success: true, data: created }, 201);
  });
}
