import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { MAX_VIOLATION_LABEL_LENGTH, fineCentsField, violationCodeField } from './citations';

// What the officer's device needs of violations lives in the citations contract, which the device loads anyway.
export {
  CITATION_VIOLATIONS_PATH,
  citationViolationsSchema,
  DEFAULT_VIOLATIONS,
  fineCentsField,
  MAX_FINE_CENTS,
  MAX_VIOLATION_LABEL_LENGTH,
  offeredViolationSchema,
  VIOLATION_CODE,
  violationCodeField,
  type CitationViolations,
  type OfferedViolation,
} from './citations';

/**
 * Violations per location (issue 38; docs/decisions/0097): each location has its own list with a usual fine each,
 * edited in Locations and downloaded by the officer's device for offline use. Fines are whole cents in the API, typed
 * and shown in dollars.
 */

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
