import * as z from 'zod/mini';
import { isInstant } from './calendar';
import { canonicalIdParam } from './ids';
import { pagedSchema } from './lists';
import { RATE_CHANGE_STATUSES } from './rate-change-search';
import { DAILY_MAXIMUM_MODES, INCREMENT_CHOICES, PRICINGS, ROUNDINGS } from '../rates/rate-set';

/**
 * Rates (docs/rates.md): a location's configuration, and its rate sets as dated changes. The rate set's shape is
 * checked here; what it means (gaps, overlaps, prices, maximums) is `validate`'s, whose messages the server answers
 * with, so the console and the API say the same.
 */
const numberField = z.number('Enter a number.');
export const rateBandSchema = z.strictObject({
  day: numberField,
  startMinute: numberField,
  endMinute: numberField,
  pricing: z.enum(PRICINGS, 'Choose per increment or flat.'),
  priceCents: numberField,
});
export const eventRateSchema = z.strictObject({
  name: z.string().check(z.maxLength(200, 'At most 200 characters.')),
  start: z.string().check(z.maxLength(40, 'Enter a date and time.')),
  end: z.string().check(z.maxLength(40, 'Enter a date and time.')),
  pricing: z.enum(PRICINGS, 'Choose per increment or flat.'),
  priceCents: numberField,
});
export const rateSetSchema = z.strictObject({
  bands: z.array(rateBandSchema).check(z.maxLength(2000, 'Too many bands.')),
  dailyMaxCents: z.nullable(numberField),
  maxStayMinutes: z.nullable(numberField),
  events: z.array(eventRateSchema).check(z.maxLength(500, 'Too many events.')),
});

export const RATE_CURRENCIES = ['USD', 'CAD', 'EUR', 'GBP'] as const;
export const rateConfigFieldsShape = {
  currency: z.enum(RATE_CURRENCIES, 'Choose a currency.'),
  incrementMinutes: z.number().check(
    z.refine((value) => (INCREMENT_CHOICES as readonly number[]).includes(value), `The increment must be one of ${INCREMENT_CHOICES.join(', ')} minutes.`),
  ),
  rounding: z.enum(ROUNDINGS, 'Choose how a stay is rounded.'),
  graceMinutes: z.int('The grace period must be a whole number of minutes.').check(
    z.gte(0, 'The grace period cannot be negative.'),
    z.lte(1440, 'The grace period must be at most 1,440 minutes.'),
  ),
  taxBasisPoints: z.int('The tax must be a whole number of hundredths of a percent.').check(
    z.gte(0, 'The tax cannot be negative.'),
    z.lte(10_000, 'The tax must be at most 100 %.'),
  ),
  dailyMaximum: z.enum(DAILY_MAXIMUM_MODES, 'Choose how the daily maximum counts days.'),
};
export const rateConfigSchema = z.strictObject(rateConfigFieldsShape);
/** Version 0 is a location whose configuration was never saved (the defaults are shown). */
const versionField = z.int('The version must be a whole number.').check(z.gte(0, 'The version cannot be negative.'));
export const rateConfigUpdateSchema = z.strictObject({ ...rateConfigFieldsShape, version: versionField });
export type RateConfigUpdate = z.infer<typeof rateConfigUpdateSchema>;

export { RATE_CHANGE_STATUSES, RATE_CHANGE_SORT_KEYS, rateChangeListQuerySchema } from './rate-change-search';
export type { RateChangeListQuery, RateChangeStatus } from './rate-change-search';

/** An instant with its offset ("2026-03-02T09:00:00-06:00" or "…Z"), as the console sends it from the location's zone. */
const instant = z.string('Enter a date and time.').check(z.refine(isInstant, 'Enter a date and time.'));
export const rateChangeInputSchema = z.strictObject({
  rate_set: rateSetSchema,
  effective_at: instant,
  reason: z.pipe(
    z.string('Say why.'),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.minLength(1, 'Say why the rates change.'), z.maxLength(500, 'The reason must be at most 500 characters.')),
    ),
  ),
  /** The location's schedule version the change was made from (409 if another change came first). */
  schedule_version: versionField,
});
export type RateChangeInput = z.infer<typeof rateChangeInputSchema>;
export const rateChangeCancelSchema = z.strictObject({ schedule_version: versionField });

const person = z.nullable(z.object({ email: z.string(), name: z.nullable(z.string()) }));
export const rateChangeSchema = z.object({
  rate_set_id: z.int().check(z.positive()),
  location_id: z.int().check(z.positive()),
  location_name: z.string(),
  time_zone: z.string(),
  effective_at: z.string(),
  status: z.enum(RATE_CHANGE_STATUSES),
  reason: z.string(),
  created_at: z.string(),
  created_by: person,
  cancelled_at: z.nullable(z.string()),
  cancelled_by: person,
});
export type RateChange = z.infer<typeof rateChangeSchema>;
export const rateChangeDetailSchema = z.object({ ...rateChangeSchema.shape, rate_set: rateSetSchema });
export type RateChangeDetail = z.infer<typeof rateChangeDetailSchema>;

export const rateLocationSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  time_zone: z.string(),
  config: rateConfigSchema,
  config_version: z.int().check(z.nonnegative()),
  schedule_version: z.int().check(z.nonnegative()),
  /** The set in force now (the latest applied change), or none yet. */
  current: z.nullable(rateChangeDetailSchema),
  /** The next scheduled change, if any. */
  next: z.nullable(rateChangeDetailSchema),
});
export type RateLocation = z.infer<typeof rateLocationSchema>;
export const rateLocationRefSchema = z.object({ location_id: z.int().check(z.positive()), name: z.string(), time_zone: z.string() });
export const rateLocationRefsSchema = z.array(rateLocationRefSchema);

export const rateChangePageSchema = pagedSchema(rateChangeSchema);

export const rateLocationParamsSchema = z.object({ locationId: canonicalIdParam() });
export const rateChangeParamsSchema = z.object({ rateSetId: canonicalIdParam() });

export const RATES_PATH = '/rates';
