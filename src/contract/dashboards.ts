import * as z from 'zod/mini';
import { locationRefSchema } from '../permissions/permissions-object';
import { PAYMENT_METHODS } from './transactions';

export * from './dashboard-queries';

/**
 * The real-time and settled dashboards (docs/dashboards.md). Both read per-location rollups, never payments. Money is
 * in integer cents; sums are exact (bigint in SQL, integers below 2^53 in JSON).
 */
const count = z.int().check(z.nonnegative());
const signedCents = z.int();

export const realtimeLocationSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  time_zone: z.string(),
  /** Today in the location's own zone (YYYY-MM-DD). */
  local_day: z.string(),
  capacity: count,
  payments: count,
  gross_cents: signedCents,
  refunded_cents: signedCents,
  /** Paid stays not yet expired. */
  active_sessions: count,
});
export type RealtimeLocation = z.infer<typeof realtimeLocationSchema>;

/** Hour of the local day (0–23) at each location, summed over the locations shown; 25-hour days add hour 1 twice. */
export const realtimeHourSchema = z.object({
  hour: z.int().check(z.gte(0), z.lte(23)),
  payments: count,
  gross_cents: signedCents,
  last_week_payments: count,
  last_week_gross_cents: signedCents,
});
export type RealtimeHour = z.infer<typeof realtimeHourSchema>;

/** Latest payments: no plate or phone, which the dashboard does not need. */
export const latestPaymentSchema = z.object({
  transaction_id: z.int().check(z.positive()),
  location_id: z.int().check(z.positive()),
  location_name: z.string(),
  time_zone: z.string(),
  payment_time: z.string(),
  amount_cents: count,
  payment_method: z.enum(PAYMENT_METHODS),
});
export type LatestPayment = z.infer<typeof latestPaymentSchema>;

export const realtimeSummarySchema = z.object({
  /** The server's clock when the figures were read (ISO 8601, UTC). */
  as_of: z.string(),
  /** The id of the last change these figures include (the stream's event id). */
  change_id: count,
  /** Every location the user may see on this dashboard: the filter's choice. */
  choices: z.array(locationRefSchema),
  locations: z.array(realtimeLocationSchema),
  hours: z.array(realtimeHourSchema),
  latest: z.array(latestPaymentSchema),
});
export type RealtimeSummary = z.infer<typeof realtimeSummarySchema>;

export const settledFiguresSchema = z.object({
  payments: count,
  gross_cents: signedCents,
  fee_cents: signedCents,
  refunded_cents: signedCents,
  /** gross − fees − refunds. */
  net_cents: signedCents,
});
export type SettledFigures = z.infer<typeof settledFiguresSchema>;

export const settledDashboardSchema = z.object({
  from: z.string(),
  to: z.string(),
  choices: z.array(locationRefSchema),
  /** Every day of the range, empty days included, over the chosen locations. */
  days: z.array(z.object({ day: z.string(), ...settledFiguresSchema.shape })),
  /** Each chosen location with settled money in the range. */
  locations: z.array(z.object({ location_id: z.int().check(z.positive()), name: z.string(), ...settledFiguresSchema.shape })),
  totals: settledFiguresSchema,
});
export type SettledDashboard = z.infer<typeof settledDashboardSchema>;

/** The longest range one request may ask for: settled-ranges.ts. */
export { MAX_SETTLED_RANGE_DAYS } from './settled-ranges';
