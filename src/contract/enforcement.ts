import * as z from 'zod/mini';

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
/**
 * The largest `offset` accepted: as many records as one sync may fetch for a type (spec §9: 50 pages of 2000). A page
 * reads up to offset + limit records per listed location, so an unbounded offset would let one call read the whole
 * table; a console cursor counts records of one second it already holds, and never needs more than a sync brings.
 */
export const SYNC_MAX_OFFSET = SYNC_PAGE_SIZE * SYNC_MAX_PAGES;
/** Expired transactions older than this are neither served for sync nor kept locally (spec §9: 21 days). */
export const PURGE_AFTER_SECONDS = 21 * 24 * 3600;

const positiveInt = z.int().check(z.positive());
const nonnegativeInt = z.int().check(z.nonnegative());

export const enforcementQuerySchema = z.object({ type: z.optional(z.enum(SYNC_TYPES)) });

export const enforcementRequestSchema = z.object({
  type: z.enum(SYNC_TYPES),
  locationId: z.array(positiveInt).check(z.minLength(1), z.maxLength(500)),
  limit: z.int().check(z.gte(1), z.lte(SYNC_PAGE_SIZE)),
  updated_at: z.optional(nonnegativeInt),
  offset: z.optional(z.int().check(z.nonnegative(), z.lte(SYNC_MAX_OFFSET))),
});
export type EnforcementRequest = z.infer<typeof enforcementRequestSchema>;

const unixSeconds = nonnegativeInt;
const isoDateTime = z.string().check(z.minLength(1), z.maxLength(40));
const licensePlate = z.string().check(z.minLength(1), z.maxLength(16));
const dollars = z.number().check(z.nonnegative());
const text = (maxLength: number) => z.string().check(z.maxLength(maxLength));
/** Phone numbers may be unknown (null). */
const phone = z.nullable(text(32));

/** A paid parking transaction (spec §3). Amounts are in dollars with cents, as the product shows them. */
export const transactionRecordSchema = z.object({
  transaction_id: positiveInt,
  location_id: positiveInt,
  license_plate: licensePlate,
  expiry_date_time: isoDateTime,
  expiry_date_time_unix: unixSeconds,
  phone_number: phone,
  payment_time: isoDateTime,
  payment_amount: dollars,
  /**
   * Dollars refunded so far; the server always sends it. A refund moves the payment's updated_at, so the next sync
   * brings it again. Absent in records cached before refunds were synced (read as nothing refunded).
   */
  refunded_amount: z.optional(dollars),
  updated_at: unixSeconds,
});
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;

/** A SpotHero or ParkWhiz booking (spec §3). */
export const bookingRecordSchema = z.object({
  id: positiveInt,
  license_plate: licensePlate,
  location_id: positiveInt,
  expiry_date_time: isoDateTime,
  created_at: isoDateTime,
  payment_amount: dollars,
  payment_time: isoDateTime,
  updated_at: unixSeconds,
});
export type BookingRecord = z.infer<typeof bookingRecordSchema>;

/** A monthly parker's vehicle (spec §3); the local store keys it by an auto-increment id of its own. */
export const monthlyParkerRecordSchema = z.object({
  license_plate: licensePlate,
  location_id: positiveInt,
  vehicleStatus: text(32),
  parkerid: positiveInt,
  fname: text(80),
  lname: text(80),
  homephone: phone,
  mobilephone: phone,
  workphone: phone,
  parkerStatus: text(32),
  updated_at: unixSeconds,
});
export type MonthlyParkerRecord = z.infer<typeof monthlyParkerRecordSchema>;

export const SYNC_RECORD_SCHEMAS = {
  valid: transactionRecordSchema,
  expired: transactionRecordSchema,
  spothero: bookingRecordSchema,
  parkwhiz: bookingRecordSchema,
  monthly_parkers: monthlyParkerRecordSchema,
} as const satisfies Record<SyncType, z.ZodMiniType>;
