import * as z from 'zod/mini';
import {
  MAX_AMOUNT_OFF_CENTS,
  MAX_FREE_MINUTES,
  promoCodeFieldsShape,
  promoCodeInputSchema,
  SINGLE_USE_CAP_MESSAGE,
  singleUseCapFits,
  type DiscountType,
  type PromoCode,
  type PromoCodeInput,
} from '../../../../contract/promo-codes';
import { centsToDollarsText, dollarsProblem, dollarsToCents } from '../../../../contract/money-text';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { instantToWallClock, wallClockToInstant } from '../../../../ui/date-time';
import { calendarDateIn, msToWallClock, wallClockToMs, zoneOf } from '../../../../ui/zoned-time';

/**
 * The promo-code form's values as a person types them: the discount in its own unit (dollars for an amount off, a
 * whole percent, whole minutes) and the validity as wall-clock times on the code's locations' clock. They are turned
 * into the contract's input (cents, ISO instants) only when sent, so a refused value stays as typed.
 */
export type PromoCodeDraft = Omit<z.input<typeof promoCodeInputSchema>, 'discount_value' | 'valid_from' | 'valid_to'> & {
  discount_value: string;
  /** "2026-03-01T00:00" on the clock of the code's locations (`promoCodeZone`). */
  valid_from: string;
  valid_to: string;
};

/** The clock a code's times are typed and read on: its locations' zone when they share one, else the viewer's. */
export function promoCodeZone(locationIds: readonly number[], locations: readonly LocationRef[]): string {
  const zones = locations.filter((location) => locationIds.includes(location.location_id)).map((location) => location.time_zone);
  // No location chosen yet: the clock of the locations on offer (one zone for most promo staff).
  return zoneOf(zones.length ? zones : locations.map((location) => location.time_zone));
}

/** The discount typed, in words when it cannot be sent, by the unit of its type. */
function discountProblem(type: DiscountType, text: string): string | null {
  if (type === 'amount') return dollarsProblem(text, { label: 'amount off', maxCents: MAX_AMOUNT_OFF_CENTS });
  const trimmed = text.trim().replace(type === 'percent' ? /\s*%$/ : /$^/, '');
  const [noun, max, example] = type === 'percent' ? ['percentage off', 100, '25'] : ['free minutes', MAX_FREE_MINUTES, '60'];
  if (trimmed.startsWith('-')) return `The ${noun} cannot be negative.`;
  if (!/^\d+$/.test(trimmed)) return `Enter the ${noun} as a whole number, like ${example}.`;
  const value = Number(trimmed);
  if (value < 1) return `The ${noun} must be at least 1.`;
  return value > max ? `The ${noun} can be at most ${max.toLocaleString('en-US')}.` : null;
}

/** The discount's stored value: cents for an amount off, else the whole number typed. */
function discountValueOf(type: DiscountType, text: string): number {
  return type === 'amount' ? (dollarsToCents(text) ?? Number.NaN) : Number(text.trim().replace(/\s*%$/, ''));
}

/** A wall-clock text is a real time ("2026-02-30T00:00" is not); the zone does not matter for that. */
const isWallClock = (text: string) => wallClockToMs(text, 'UTC') !== null;
/** The same wall-clock time a year later. */
const yearLater = (text: string) => `${Number(text.slice(0, 4)) + 1}${text.slice(4)}`;

const wallClockField = (label: string) =>
  z.string().check(z.refine(isWallClock, `Enter the ${label} as a date and time.`));

/** The form's schema: the contract's fields, with the discount and the validity as typed. */
export const promoCodeDraftSchema = z
  .object({
    ...promoCodeFieldsShape,
    discount_value: z.string(),
    valid_from: wallClockField('start of validity'),
    valid_to: wallClockField('end of validity'),
  })
  .check(
    // A plain check function, not z.superRefine: the same issues, without zod code that would land in the chunk
    // every page loads (vite.config.ts SHARED_CHUNKS) for this screen alone.
    (context) => {
      const draft = context.value;
      const problem = discountProblem(draft.discount_type, draft.discount_value);
      if (problem) context.issues.push({ code: 'custom', input: draft.discount_value, path: ['discount_value'], message: problem });
      if (!singleUseCapFits(draft.multi_use, draft.total_cap)) {
        context.issues.push({ code: 'custom', input: draft.total_cap, path: ['total_cap'], message: SINGLE_USE_CAP_MESSAGE });
      }
      if (!isWallClock(draft.valid_from) || !isWallClock(draft.valid_to)) return;
      // Both on one clock: their text orders as their times do.
      const message =
        draft.valid_to <= draft.valid_from
          ? 'The end of validity must be after its start.'
          : draft.valid_to > yearLater(draft.valid_from)
            ? 'A code may be valid for at most a year.'
            : null;
      if (message) context.issues.push({ code: 'custom', input: draft.valid_to, path: ['valid_to'], message });
    },
  );

/** What is sent: the draft in the contract's units, the times read on `timeZone`'s clock. */
export function draftToInput(draft: PromoCodeDraft, timeZone: string): PromoCodeInput {
  return z.parse(promoCodeInputSchema, {
    ...draft,
    discount_value: discountValueOf(draft.discount_type, draft.discount_value),
    valid_from: wallClockToInstant(draft.valid_from, timeZone),
    valid_to: wallClockToInstant(draft.valid_to, timeZone),
  });
}

/** The text a discount field shows for a stored value: dollars and cents for an amount off. */
export function discountText(type: DiscountType, value: number): string {
  return type === 'amount' ? centsToDollarsText(value) : String(value);
}

/** An existing code as the form edits it, its times on `timeZone`'s clock. */
export function draftOf(code: PromoCode, timeZone: string): PromoCodeDraft {
  const { promo_code_id: _id, uses: _uses, remaining: _remaining, version: _version, updated_at: _at, ...values } = code;
  return {
    ...values,
    discount_value: discountText(code.discount_type, code.discount_value),
    valid_from: instantToWallClock(code.valid_from, timeZone),
    valid_to: instantToWallClock(code.valid_to, timeZone),
  };
}

/** A new code: from today 00:00 for 30 days on `timeZone`'s clock, multi use, active. */
export function newDraft(timeZone: string, now = Date.now()): PromoCodeDraft {
  const today = `${calendarDateIn(timeZone, now)}T00:00`;
  // 30 calendar days later, counted on the date (not in hours, which a DST change would shift).
  const [year, month, day] = today.slice(0, 10).split('-').map(Number) as [number, number, number];
  const end = msToWallClock(Date.UTC(year, month - 1, day + 30), 'UTC');
  return {
    code: '',
    discount_type: 'percent',
    discount_value: '',
    multi_use: true,
    total_cap: null,
    per_plate_cap: null,
    valid_from: today,
    valid_to: end,
    location_ids: [],
    active: true,
  };
}
