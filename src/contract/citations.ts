import * as z from 'zod/mini';
import { isInstant } from './calendar';
import { CITATION_STATUSES } from './citation-search';
import { MAX_INT_ID } from './ids';
import { pagedSchema } from './lists';

/**
 * Citations (issue 38): written by an officer on /list from a verdict, kept on the device first (the outbox) and
 * uploaded with the id the device gave it, so a retry, a reload or a second tab never makes a second one. Fines are
 * whole cents in the API and in storage, typed and shown in dollars (docs/decisions/0001). The violations and their
 * usual fines are each location's own: src/contract/violations.ts.
 */
export const CITATIONS_PATH = '/citations';
export const CITATIONS_EXPORT_PATH = '/citations/export';
export const citationPath = (citationId: string) => `${CITATIONS_PATH}/${citationId}`;
export const citationPhotoPath = (citationId: string, sha256: string) => `${citationPath(citationId)}/photos/${sha256}`;

export const MAX_PHOTOS_PER_CITATION = 3;
/** A photo as the device sends it, after compression (~1600 px JPEG is ~300 KB); a raw camera file is refused. */
export const MAX_PHOTO_BYTES = 1_000_000;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const MAX_NOTES_LENGTH = 1000;
/**
 * How far ahead of the server's clock a citation's time may be (a phone's clock drifts), and how old it may be when it
 * arrives (a phone that stayed offline for days still uploads; a month is a lost device found again, not a retry).
 */
export const ISSUED_AT_AHEAD_MS = 10 * 60 * 1000;
export const ISSUED_AT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/*
 * Violations as a citation and the officer's device see them; each location's list and its editing are in
 * src/contract/violations.ts (docs/decisions/0097).
 */

/** A fine above this is a typing mistake (dollars for cents, an extra zero). */
export const MAX_FINE_CENTS = 100_000;
export const MAX_VIOLATION_LABEL_LENGTH = 80;
/** How a violation is named in citations and in the API: made from its first label, never changed afterwards. */
export const VIOLATION_CODE = /^[a-z0-9_]{1,40}$/;

export const violationCodeField = z.string('Choose a violation from the list.').check(z.regex(VIOLATION_CODE, 'Choose a violation from the list.'));

export const fineCentsField = z
  .int('The fine must be a whole number of cents.')
  .check(z.nonnegative('The fine cannot be negative.'), z.lte(MAX_FINE_CENTS, `The fine can be at most $${MAX_FINE_CENTS / 100}.`));

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

/** What the officer's device downloads: the active violations of each location where it may write citations. */
export const CITATION_VIOLATIONS_PATH = '/citation-violations';
export const offeredViolationSchema = z.object({ code: z.string(), label: z.string(), fine_cents: z.int().check(z.nonnegative()) });
export type OfferedViolation = z.infer<typeof offeredViolationSchema>;
export const citationViolationsSchema = z.object({
  locations: z.array(z.object({ location_id: z.int().check(z.positive()), violations: z.array(offeredViolationSchema) })),
});
export type CitationViolations = z.infer<typeof citationViolationsSchema>;

/** A device-made id: a UUID in lower case, the one spelling of it (docs/api.md "Ids"). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const citationIdField = z.string('The citation id must be a UUID.').check(z.regex(UUID, 'The citation id must be a UUID in lower case.'));
export const SHA256 = /^[0-9a-f]{64}$/;
const sha256Field = z.string('The photo is named by its SHA-256.').check(z.regex(SHA256, 'The photo is named by its SHA-256 in lower-case hex.'));

export const citationParamsSchema = z.object({ citationId: citationIdField });
export const citationPhotoParamsSchema = z.object({ citationId: citationIdField, sha256: sha256Field });

/** Plates as the enforcement screen normalises them: letters and digits, upper case, no spaces or dashes. */
export const normalisePlate = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();
const plateField = z.pipe(
  z.string('Enter the license plate.'),
  z.pipe(
    z.transform(normalisePlate),
    z.string().check(z.regex(/^[A-Z0-9]{1,16}$/, 'The license plate must be 1 to 16 letters or digits.')),
  ),
);
const trimmed = (missing: string, max: number, tooLong: string, min = 1) =>
  z.pipe(
    z.string(missing),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.minLength(min, missing), z.maxLength(max, tooLong)),
    ),
  );

export const citationInputSchema = z.strictObject({
  citation_id: citationIdField,
  location_id: z
    .int('The location must be a location id.')
    .check(z.positive('The location must be a location id.'), z.lte(MAX_INT_ID, 'The location must be a location id.')),
  license_plate: plateField,
  /** When the officer wrote it, by the device's clock (ISO 8601 with its offset). */
  issued_at: z.string('Send the time the citation was written.').check(z.refine(isInstant, 'The time must be a date and time (ISO 8601 with its offset).')),
  /** A code of the location's list of violations (src/contract/violations.ts); the server checks it is there. */
  violation: violationCodeField,
  fine_cents: fineCentsField,
  notes: trimmed('Notes must be text.', MAX_NOTES_LENGTH, `Notes must be at most ${MAX_NOTES_LENGTH} characters.`, 0),
  /** The verdict the officer saw when writing it: its headline (NO RECORD, EXPIRED…) and its line. */
  verdict: z.strictObject({
    headline: trimmed('Send the verdict that was shown.', 40, 'The verdict must be at most 40 characters.'),
    detail: trimmed('The verdict detail must be text.', 300, 'The verdict detail must be at most 300 characters.', 0),
  }),
});
export type CitationInput = z.infer<typeof citationInputSchema>;
export type CitationInputValues = z.input<typeof citationInputSchema>;

export const citationPhotoSchema = z.object({
  sha256: z.string(),
  content_type: z.enum(PHOTO_TYPES),
  size_bytes: z.int().check(z.positive()),
});
export type CitationPhoto = z.infer<typeof citationPhotoSchema>;

export const citationSchema = z.object({
  citation_id: z.string(),
  location_id: z.int().check(z.positive()),
  location_name: z.string(),
  time_zone: z.string(),
  license_plate: z.string(),
  issued_at: z.string(),
  /** When the server got it (after any time offline). */
  received_at: z.string(),
  officer: z.object({ email: z.string(), name: z.nullable(z.string()) }),
  violation: z.string(),
  /** The violation's label when the citation arrived: later changes to the location's list leave it as it was. */
  violation_label: z.string(),
  fine_cents: z.int().check(z.nonnegative()),
  notes: z.string(),
  verdict: z.object({ headline: z.string(), detail: z.string() }),
  status: z.enum(CITATION_STATUSES),
  void_reason: z.nullable(z.string()),
  voided_at: z.nullable(z.string()),
  photos: z.array(citationPhotoSchema),
  version: z.int().check(z.positive()),
});
export type Citation = z.infer<typeof citationSchema>;

export { CITATION_SORT_KEYS, CITATION_STATUSES, citationListQuerySchema, type CitationListQuery, type CitationStatus } from './citation-search';
export const citationPageSchema = pagedSchema(citationSchema);

export const citationVoidSchema = z.strictObject({
  reason: trimmed('Enter the reason for voiding the citation.', 500, 'The reason must be at most 500 characters.'),
  version: z.int('The version must be a whole number.').check(z.positive('The version must be positive.')),
});
export type CitationVoid = z.infer<typeof citationVoidSchema>;

/** A photo as JSON: base64 of the compressed bytes (a JSON body keeps one way of reading requests; ~1.33× the bytes). */
export const citationPhotoInputSchema = z.strictObject({
  content_type: z.enum(PHOTO_TYPES, 'A photo must be a JPEG, PNG or WebP image.'),
  data_base64: z
    .string('Send the photo as base64.')
    .check(
      z.minLength(1, 'The photo is empty.'),
      z.maxLength(Math.ceil(MAX_PHOTO_BYTES / 3) * 4, `A photo can be at most ${MAX_PHOTO_BYTES / 1_000_000} MB.`),
      z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The photo must be base64.'),
    ),
});
export type CitationPhotoInput = z.infer<typeof citationPhotoInputSchema>;
