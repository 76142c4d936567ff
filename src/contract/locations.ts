import * as z from 'zod/mini';
import { pagedSchema } from './lists';
import { LOCATION_STATUSES } from './location-search';

// The list's query and the path parameter live in location-search.ts: route guards import them, and what they import
// joins the entry chunk that /login and /list pay for (docs/sections.md, step 2 of Lists).
export {
  LOCATION_SORT_KEYS,
  LOCATION_STATUSES,
  locationListQuerySchema,
  locationParamsSchema,
  type LocationListQuery,
  type LocationSortKey,
} from './location-search';

export const MAX_CAPACITY = 100_000;
/** A day: longer grace than that is a mistake in minutes vs hours. */
export const MAX_GRACE_PERIOD_MINUTES = 1440;

/**
 * An IANA zone name the runtime knows, spelled as the database spells it ("America/Chicago", or "UTC"); the same check
 * runs in the browser and on the server. Area/Location names only: "EST" or "CST6CDT" are zones too, but not what a
 * person means by a location's clock. A name in another case ("america/chicago") is refused rather than stored: Intl
 * accepts it, but every comparison of zones would then miss it. Aliases (Asia/Calcutta, Asia/Kolkata) both pass, as
 * runtimes disagree on which one is canonical.
 */
export function isTimeZone(value: string): boolean {
  if (!/^(UTC|[A-Z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+){1,2})$/.test(value)) return false;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    return resolved === value || resolved.toLowerCase() !== value.toLowerCase();
  } catch {
    return false;
  }
}

/** Missing, empty or not a zone: each said in words, as the form shows it at the field. */
const timeZoneField = z.string('Choose the time zone of this location.').check(
  z.minLength(1, 'Choose the time zone of this location.'),
  z.refine((value) => value === '' || isTimeZone(value), 'Choose a time zone from the list (e.g. America/Chicago).'),
);

const trimmedText = (label: string, maxLength: number) =>
  z.pipe(
    z.string(),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(
        z.minLength(1, `Enter the ${label}.`),
        z.maxLength(maxLength, `The ${label} must be at most ${maxLength} characters.`),
      ),
    ),
  );
const wholeNumberField = (label: string, max: number) =>
  z.int(`The ${label} must be a whole number.`).check(
    z.gte(0, `The ${label} cannot be negative.`),
    z.lte(max, `The ${label} must be at most ${max.toLocaleString('en-US')}.`),
  );

/** The fields a person edits on the location form; one schema for the form, the request body and the server. */
export const locationFieldsShape = {
  name: trimmedText('name', 120),
  address: trimmedText('address', 240),
  time_zone: timeZoneField,
  capacity: wholeNumberField('number of spaces', MAX_CAPACITY),
  status: z.enum(LOCATION_STATUSES, 'Choose Active or Inactive.'),
  enforcement_enabled: z.boolean('Enforcement must be on or off.'),
  grace_period_minutes: wholeNumberField('grace period', MAX_GRACE_PERIOD_MINUTES),
};
/** Unknown fields are refused, so that a typo in a field name is an error rather than a silently ignored change. */
export const locationInputSchema = z.strictObject(locationFieldsShape);
export type LocationInput = z.infer<typeof locationInputSchema>;
export type LocationFormValues = z.input<typeof locationInputSchema>;

export const locationUpdateSchema = z.strictObject({
  ...locationFieldsShape,
  version: z.int('The version must be a whole number.').check(z.positive('The version must be positive.')),
});
export type LocationUpdate = z.infer<typeof locationUpdateSchema>;

export const locationSchema = z.object({
  location_id: z.int().check(z.positive()),
  name: z.string(),
  address: z.string(),
  time_zone: z.string(),
  capacity: z.int().check(z.nonnegative()),
  status: z.enum(LOCATION_STATUSES),
  enforcement_enabled: z.boolean(),
  grace_period_minutes: z.int().check(z.nonnegative()),
  version: z.int().check(z.positive()),
  updated_at: z.string(),
});
export type Location = z.infer<typeof locationSchema>;
/** A location as seeds and fixtures write it: without the fields the database keeps (version, updated_at). */
export type LocationSeed = Omit<Location, 'version' | 'updated_at'>;

export const LOCATIONS_PATH = '/locations';
export const LOCATIONS_EXPORT_PATH = '/locations/export';
export const locationPageSchema = pagedSchema(locationSchema);


const versionField = z.int('The version must be a whole number.').check(z.positive('The version must be positive.'));
/** Deactivate or activate, from the version the user saw. */
export const locationStatusChangeSchema = z.strictObject({ status: z.enum(LOCATION_STATUSES), version: versionField });
/** Delete, from the version the user saw (only a location without records). */
export const locationDeleteSchema = z.strictObject({ version: versionField });
export const locationDeletedSchema = z.object({ deleted: z.literal(true) });
