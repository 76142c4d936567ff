import * as z from 'zod/mini';
import { locationRefSchema } from '../permissions/permissions-object';
import { isInstant } from './calendar';
import { canonicalIdParam, MAX_INT_ID } from './ids';
import { pagedSchema } from './lists';
import { idempotencyKeyOf } from './refunds';

/**
 * Promo codes (issue 12). Discounts are whole numbers of their kind: a percentage (1–100), an amount off in cents
 * (the location's currency, US dollars at every location today), or free minutes of parking.
 */
export const DISCOUNT_TYPES = ['percent', 'amount', 'minutes'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
export const MAX_AMOUNT_OFF_CENTS = 100_000;
/** A week: more free time than that is a typing mistake (minutes for hours). */
export const MAX_FREE_MINUTES = 10_080;
export const MAX_CAP = 1_000_000;
export const CODE_PATTERN = /^[A-Za-z0-9]{4,20}$/;

export const PROMO_CODES_PATH = '/promo-codes';
export const PROMO_CODES_EXPORT_PATH = '/promo-codes/export';
export const PROMO_CODES_REDEEM_PATH = '/promo-codes/redeem';
export const PROMO_CODES_LOCATIONS_PATH = '/promo-codes/locations';
/** The locations of the user's promo-code permission. */
export const promoCodeLocationsSchema = z.array(locationRefSchema);

/** valid_from + one calendar year (UTC): the longest a code may run. */
export function oneYearAfter(iso: string): Date {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date;
}

const instantField = (label: string) =>
  z.string(`Enter the ${label}.`).check(z.refine(isInstant, `The ${label} must be a date and time (ISO 8601 with its offset).`));
const capField = (label: string) =>
  z.nullable(
    z.int(`The ${label} must be a whole number.`).check(
      z.gte(1, `The ${label} must be at least 1 (leave it empty for no cap).`),
      z.lte(MAX_CAP, `The ${label} must be at most ${MAX_CAP.toLocaleString('en-US')}.`),
    ),
  );

export const promoCodeFieldsShape = {
  /** Empty: the server generates one (8 letters and digits, without look-alikes). */
  code: z.pipe(
    z.string('Enter a code, or leave it empty to generate one.'),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.refine((value) => value === '' || CODE_PATTERN.test(value), 'The code must be 4 to 20 letters or digits.')),
    ),
  ),
  discount_type: z.enum(DISCOUNT_TYPES, 'Choose percent, amount off or free minutes.'),
  discount_value: z.int('The discount must be a whole number.').check(z.gte(1, 'The discount must be at least 1.')),
  multi_use: z.boolean('Choose single or multi use.'),
  total_cap: capField('total cap'),
  per_plate_cap: capField('per-plate cap'),
  valid_from: instantField('start of validity'),
  valid_to: instantField('end of validity'),
  location_ids: z
    .array(
      z.int('Locations are location ids.').check(z.positive('Locations are location ids.'), z.lte(MAX_INT_ID, 'Locations are location ids.')),
      'Choose at least one location.',
    )
    .check(
      z.minLength(1, 'Choose at least one location.'),
      z.maxLength(500, 'At most 500 locations.'),
      z.refine((ids) => new Set(ids).size === ids.length, 'Each location may be chosen once.'),
    ),
  active: z.boolean('Active must be on or off.'),
};

type PromoFields = { [K in keyof typeof promoCodeFieldsShape]: z.infer<(typeof promoCodeFieldsShape)[K]> };

/** A single-use code is used once in all: its total cap is empty or 1 (the form checks this too, as typed). */
export const SINGLE_USE_CAP_MESSAGE = 'A single-use code is used once: leave the total cap empty or 1.';
export const singleUseCapFits = (multiUse: boolean, totalCap: number | null) => multiUse || totalCap === null || totalCap === 1;

/** Rules between fields, each reported at the field a person would change. */
const crossFieldChecks = [
  z.refine<PromoFields>(
    (value) =>
      value.discount_type === 'percent'
        ? value.discount_value <= 100
        : value.discount_type === 'amount'
          ? value.discount_value <= MAX_AMOUNT_OFF_CENTS
          : value.discount_value <= MAX_FREE_MINUTES,
    {
      path: ['discount_value'],
      message: `The discount is too large: at most 100 percent, $${MAX_AMOUNT_OFF_CENTS / 100} off or ${MAX_FREE_MINUTES} minutes.`,
    },
  ),
  z.refine<PromoFields>((value) => singleUseCapFits(value.multi_use, value.total_cap), { path: ['total_cap'], message: SINGLE_USE_CAP_MESSAGE }),
  z.refine<PromoFields>((value) => !isInstant(value.valid_from) || !isInstant(value.valid_to) || Date.parse(value.valid_to) > Date.parse(value.valid_from), {
    path: ['valid_to'],
    message: 'The end of validity must be after its start.',
  }),
  z.refine<PromoFields>(
    (value) => !isInstant(value.valid_from) || !isInstant(value.valid_to) || Date.parse(value.valid_to) <= oneYearAfter(value.valid_from).getTime(),
    { path: ['valid_to'], message: 'A code may be valid for at most a year.' },
  ),
];

export const promoCodeInputSchema = z.strictObject(promoCodeFieldsShape).check(...crossFieldChecks);
export type PromoCodeInput = z.infer<typeof promoCodeInputSchema>;
export type PromoCodeFormValues = z.input<typeof promoCodeInputSchema>;

const versionField = z.int('The version must be a whole number.').check(z.positive('The version must be positive.'));
export const promoCodeUpdateSchema = z
  .strictObject({ ...promoCodeFieldsShape, version: versionField })
  .check(...(crossFieldChecks as unknown as z.core.$ZodCheck<PromoFields & { version: number }>[]));
export type PromoCodeUpdate = z.infer<typeof promoCodeUpdateSchema>;

export const promoCodeStatusChangeSchema = z.strictObject({ active: z.boolean('Active must be on or off.'), version: versionField });

export const promoCodeSchema = z.object({
  promo_code_id: z.int().check(z.positive()),
  code: z.string(),
  discount_type: z.enum(DISCOUNT_TYPES),
  discount_value: z.int().check(z.positive()),
  multi_use: z.boolean(),
  total_cap: z.nullable(z.int().check(z.positive())),
  per_plate_cap: z.nullable(z.int().check(z.positive())),
  uses: z.int().check(z.nonnegative()),
  /** Uses left under the total cap; null without one. */
  remaining: z.nullable(z.int().check(z.nonnegative())),
  valid_from: z.string(),
  valid_to: z.string(),
  active: z.boolean(),
  location_ids: z.array(z.int().check(z.positive())),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type PromoCode = z.infer<typeof promoCodeSchema>;

export { PROMO_CODE_SORT_KEYS, PROMO_CODE_STATES, promoCodeListQuerySchema, type PromoCodeListQuery } from './promo-code-search';
export const promoCodePageSchema = pagedSchema(promoCodeSchema);
export const promoCodeParamsSchema = z.object({ promoCodeId: canonicalIdParam() });

/** What the payment side sends to apply a code to a quote. */
export const redeemInputSchema = z.strictObject({
  code: z.string('Enter the code.').check(z.regex(CODE_PATTERN, 'The code must be 4 to 20 letters or digits.')),
  location_id: z
    .int('The location must be a location id.')
    .check(z.positive('The location must be a location id.'), z.lte(MAX_INT_ID, 'The location must be a location id.')),
  license_plate: z.pipe(
    z.string('Enter the license plate.'),
    z.pipe(
      z.transform((value: string) => value.replace(/[\s-]/g, '').toUpperCase()),
      z.string().check(z.regex(/^[A-Z0-9]{1,16}$/, 'The license plate must be 1 to 16 letters or digits.')),
    ),
  ),
  quote_cents: z.int('The quote must be a whole number of cents.').check(
    z.nonnegative('The quote cannot be negative.'),
    z.lte(10_000_000, 'The quote is larger than any parking price.'),
  ),
});
export type RedeemInput = z.infer<typeof redeemInputSchema>;

/** One key per redemption a checkout means: its retries send the same key and are answered the first result again. */
export const redeemIdempotencyKeySchema = idempotencyKeyOf('Send an Idempotency-Key header (one per redemption; the same on a retry).');

export const redemptionSchema = z.object({
  redemption_id: z.int().check(z.positive()),
  promo_code_id: z.int().check(z.positive()),
  code: z.string(),
  quote_cents: z.int().check(z.nonnegative()),
  discount_cents: z.int().check(z.nonnegative()),
  free_minutes: z.int().check(z.nonnegative()),
  total_cents: z.int().check(z.nonnegative()),
  uses: z.int().check(z.positive()),
  remaining: z.nullable(z.int().check(z.nonnegative())),
});
export type Redemption = z.infer<typeof redemptionSchema>;
