import { z } from 'zod';

/**
 * The enforcement sync call (spec §7): POST /enforcement/transactions[?type=] with type, locationId (list), limit,
 * and a cursor: updated_at (milliseconds; records with updated_at ≥ it, in seconds) and offset (records to skip
 * after that point). Records come ordered by (updated_at, key), so (updated_at, offset) is a stable cursor even
 * when many records share one updated_at (see docs/enforcement-sync.md).
 */
export const SYNC_TYPES = ['valid', 'expired', 'spothero', 'parkwhiz', 'monthly_parkers'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export const ENFORCEMENT_TRANSACTIONS_PATH = '/enforcement/transactions';
export const SYNC_PAGE_SIZE = 2000;
export const SYNC_MAX_PAGES = 50;
/** Expired transactions older than this are neither served for sync nor kept locally (spec §9: 21 days). */
export const PURGE_AFTER_SECONDS = 21 * 24 * 3600;

export const enforcementQuerySchema = z.object({ type: z.enum(SYNC_TYPES).optional() });

export const enforcementRequestSchema = z.object({
  type: z.enum(SYNC_TYPES),
  locationId: z.array(z.number().int().positive()).min(1).max(500),
  limit: z.number().int().min(1).max(SYNC_PAGE_SIZE),
  updated_at: z.number().int().nonnegative().optional(),
  offset: z.number().int().nonnegative().max(100_000_000).optional(),
});
export type EnforcementRequest = z.infer<typeof enforcementRequestSchema>;

const unixSeconds = z.number().int().nonnegative();
const isoDateTime = z.string().min(1).max(40);

/** A paid parking transaction (spec §3). Amounts are in dollars with cents, as the product shows them. */
export const transactionRecordSchema = z.object({
  transaction_id: z.number().int().positive(),
  location_id: z.number().int().positive(),
  license_plate: z.string().min(1).max(16),
  expiry_date_time: isoDateTime,
  expiry_date_time_unix: unixSeconds,
  phone_number: z.string().max(32).nullable(),
  payment_time: isoDateTime,
  payment_amount: z.number().nonnegative(),
  updated_at: unixSeconds,
});
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;

/** A SpotHero or ParkWhiz booking (spec §3). */
export const bookingRecordSchema = z.object({
  id: z.number().int().positive(),
  license_plate: z.string().min(1).max(16),
  location_id: z.number().int().positive(),
  expiry_date_time: isoDateTime,
  created_at: isoDateTime,
  payment_amount: z.number().nonnegative(),
  payment_time: isoDateTime,
  updated_at: unixSeconds,
});
export type BookingRecord = z.infer<typeof bookingRecordSchema>;

/** A monthly parker's vehicle (spec §3); the local store keys it by an auto-increment id of its own. */
export const monthlyParkerRecordSchema = z.object({
  license_plate: z.string().min(1).max(16),
  location_id: z.number().int().positive(),
  vehicleStatus: z.string().max(32),
  parkerid: z.number().int().positive(),
  fname: z.string().max(80),
  lname: z.string().max(80),
  homephone: z.string().max(32).nullable(),
  mobilephone: z.string().max(32).nullable(),
  workphone: z.string().max(32).nullable(),
  parkerStatus: z.string().max(32),
  updated_at: unixSeconds,
});
export type MonthlyParkerRecord = z.infer<typeof monthlyParkerRecordSchema>;

export const SYNC_RECORD_SCHEMAS = {
  valid: transactionRecordSchema,
  expired: transactionRecordSchema,
  spothero: bookingRecordSchema,
  parkwhiz: bookingRecordSchema,
  monthly_parkers: monthlyParkerRecordSchema,
} as const satisfies Record<SyncType, z.ZodType>;
