import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { dollarsField } from './money-text';

/**
 * Violations per location (issue 38; docs/decisions/0097): each location has its own list with a usual fine each,
 * edited in Locations and downloaded by the officer's device for offline use. Fines are whole cents in the API, typed
 * and shown in dollars.
 */

/** A fine above this is a typing mistake (dollars for cents, an extra zero). */
export const MAX_FINE_CENTS = 100_000;
export const MAX_VIOLATION_LABEL_LENGTH = 80;
/** How a violation is named in citations and in the API: made from its first label, never changed afterwards. */
export const VIOLATION_CODE = /^[a-z0-9_]{1,40}$/;

/**
 * The list every location starts with. The server's copy is the `default_violations` table (migration 025), which a
 * test holds equal to this one; the console ships this one for a device that never downloaded its location's list.
 */
export const DEFAULT_VIOLATIONS = [
  { code: 'no_payment', label: 'No payment', fine_cents: 5000 },
  { code: 'expired', label: 'Payment expired', fine_cents: 3500 },
  { code: 'overstay', label: 'Over the maximum stay', fine_cents: 3500 },
  { code: 'reserved_space', label: 'Parked in a reserved space', fine_cents: 7500 },
  { code: 'accessible_space', label: 'Accessible space without a permit', fine_cents: 25000 },
  { code: 'fire_lane', label: 'Fire lane or no-parking zone', fine_cents: 15000 },
  { code: 'two_spaces', label: 'Across two spaces', fine_cents: 2500 },
] as const;

/** The code a new violation gets from its label: "Blocking a driveway!" → "blocking_a_driveway". */
export function violationCodeOf(label: string): string {
  const code = label
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  return code || 'violation';
}

export const violationCodeField = z.string('Choose a violation from the list.').check(z.regex(VIOLATION_CODE, 'Choose a violation from the list.'));

const labelField = z.pipe(
  z.string('Enter the violation’s name.'),
  z.pipe(
    z.transform((value: string) => value.trim().replace(/\s+/g, ' ')),
    z.string().check(
      z.minLength(1, 'Enter the violation’s name.'),
      z.maxLength(MAX_VIOLATION_LABEL_LENGTH, `The name must be at most ${MAX_VIOLATION_LABEL_LENGTH} characters.`),
    ),
  ),
);
export const fineCentsField = z
  .int('The fine must be a whole number of cents.')
  .check(z.nonnegative('The fine cannot be negative.'), z.lte(MAX_FINE_CENTS, `The fine can be at most $${MAX_FINE_CENTS / 100}.`));

/** One violation of a location as the office sees it. */
export const locationViolationSchema = z.object({
  code: z.string(),
  label: z.string(),
  fine_cents: z.int().check(z.nonnegative()),
  position: z.int(),
  active: z.boolean(),
  /** Citations name it: it can be deactivated, never removed. */
  in_use: z.boolean(),
  version: z.int().check(z.positive()),
});
export type LocationViolation = z.infer<typeof locationViolationSchema>;
export const locationViolationListSchema = z.array(locationViolationSchema);

export const locationViolationsPath = (locationId: number) => `/locations/${locationId}/violations`;
export const locationViolationPath = (locationId: number, code: string) => `${locationViolationsPath(locationId)}/${code}`;
export const violationParamsSchema = z.object({ locationId: canonicalIdParam(), code: violationCodeField });

/** A new violation: its name and usual fine; its code is made from the name. */
export const violationInputSchema = z.strictObject({ label: labelField, fine_cents: fineCentsField });
export type ViolationInput = z.infer<typeof violationInputSchema>;

/** A change to one violation made from `version`: its name, its fine, whether officers are offered it. */
export const violationUpdateSchema = z.strictObject({
  label: labelField,
  fine_cents: fineCentsField,
  active: z.boolean('Say whether the violation is active.'),
  version: z.int('The version must be a whole number.').check(z.positive('The version must be positive.')),
});
export type ViolationUpdate = z.infer<typeof violationUpdateSchema>;

/** The fine as the office and the officer type it (dollars and cents). */
export const fineDollarsField = dollarsField({ label: 'fine', maxCents: MAX_FINE_CENTS, minCents: 0 });

/** What the officer's device downloads: the active violations of each location where it may write citations. */
export const CITATION_VIOLATIONS_PATH = '/citation-violations';
export const offeredViolationSchema = z.object({ code: z.string(), label: z.string(), fine_cents: z.int().check(z.nonnegative()) });
export type OfferedViolation = z.infer<typeof offeredViolationSchema>;
export const citationViolationsSchema = z.object({
  locations: z.array(z.object({ location_id: z.int().check(z.positive()), violations: z.array(offeredViolationSchema) })),
});
export type CitationViolations = z.infer<typeof citationViolationsSchema>;
