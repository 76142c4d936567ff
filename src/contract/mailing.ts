import * as z from 'zod/mini';
import { canonicalIdParam, MAX_BIGINT_ID, MAX_INT_ID } from './ids';
import { pagedSchema, pageParam, pageSizeParam } from './lists';

/** Mailing (issue 14, superuser only): compose, choose a segment, preview, test, send; docs/mailing.md. */
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_BODY_LENGTH = 50_000;
/** Placeholders the body and subject may hold, replaced per recipient (escaped in the HTML part). */
export const MAILING_PLACEHOLDERS = ['{{first_name}}', '{{last_name}}'] as const;

const trimmed = (empty: string, max: number, tooLong: string) =>
  z.pipe(
    z.string(empty),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(z.minLength(1, empty), z.maxLength(max, tooLong)),
    ),
  );

const idList = (empty: string) =>
  // Locations and roles are integer keys: a larger number names nothing (and PostgreSQL would refuse it as a parameter).
  z.array(
    z.int('Each id must be a whole number.').check(z.positive('Each id must be positive.'), z.lte(MAX_INT_ID, 'No such id.')),
  ).check(
    z.minLength(1, empty),
    z.maxLength(1000, 'Choose at most 1,000.'),
  );

export const parkerSegmentSchema = z.strictObject({
  kind: z.literal('parkers'),
  locationIds: idList('Choose at least one location.'),
  parkerStatus: trimmed('Choose a parker status.', 32, 'The parker status must be at most 32 characters.'),
});
export const staffSegmentSchema = z.strictObject({
  kind: z.literal('staff'),
  roleIds: idList('Choose at least one role.'),
});
export const segmentSchema = z.discriminatedUnion('kind', [parkerSegmentSchema, staffSegmentSchema]);
export type Segment = z.infer<typeof segmentSchema>;

export const mailingContentSchema = z.strictObject({
  subject: trimmed('Enter the subject.', MAX_SUBJECT_LENGTH, `The subject must be at most ${MAX_SUBJECT_LENGTH} characters.`),
  body: trimmed('Enter the message.', MAX_BODY_LENGTH, `The message must be at most ${MAX_BODY_LENGTH} characters.`),
});
export type MailingContent = z.infer<typeof mailingContentSchema>;
export const mailingInputSchema = z.strictObject({ ...mailingContentSchema.shape, segment: segmentSchema });
export type MailingInput = z.infer<typeof mailingInputSchema>;

/** One rendered message as a recipient sees it; `html` is sanitised by the server, shown in a sandboxed frame. */
export const renderedSampleSchema = z.object({ name: z.string(), subject: z.string(), html: z.string(), text: z.string() });
export type RenderedSample = z.infer<typeof renderedSampleSchema>;
export const mailingPreviewSchema = z.object({
  recipientCount: z.int().check(z.nonnegative()),
  /** Opted-out addresses of the segment, left out of the count. */
  optedOutCount: z.int().check(z.nonnegative()),
  samples: z.array(renderedSampleSchema),
});
export type MailingPreview = z.infer<typeof mailingPreviewSchema>;
export const mailingTestResultSchema = z.object({ sentTo: z.string() });

export const MAILING_STATES = ['queued', 'sending', 'done'] as const;
export const mailingSchema = z.object({
  mailing_id: z.int().check(z.positive()),
  subject: z.string(),
  segment: segmentSchema,
  /** The segment in words ("Active monthly parkers at Pike Place Market Garage"). */
  segment_label: z.string(),
  state: z.enum(MAILING_STATES),
  recipient_count: z.int(),
  sent: z.int(),
  failed: z.int(),
  skipped: z.int(),
  /** Not yet sent: waiting, or being sent right now. */
  left: z.int(),
  created_by_email: z.string(),
  created_at: z.string(),
  finished_at: z.nullable(z.string()),
});
export type Mailing = z.infer<typeof mailingSchema>;
export const mailingPageSchema = pagedSchema(mailingSchema);

export const mailingOptionsSchema = z.object({
  locations: z.array(z.object({ location_id: z.int(), name: z.string() })),
  parkerStatuses: z.array(z.string()),
  roles: z.array(z.object({ role_id: z.int(), name: z.string() })),
});
export type MailingOptions = z.infer<typeof mailingOptionsSchema>;

export const mailingListQuerySchema = z.object({ page: pageParam, pageSize: pageSizeParam });
export type MailingListQuery = z.infer<typeof mailingListQuerySchema>;
export const mailingParamsSchema = z.object({ mailingId: canonicalIdParam(MAX_BIGINT_ID) });

export const MAILINGS_PATH = '/mailings';
export const MAILING_OPTIONS_PATH = '/mailings/options';
export const MAILING_PREVIEW_PATH = '/mailings/preview';
export const MAILING_TEST_PATH = '/mailings/test';
export const mailingPath = (id: number) => `/mailings/${id}`;
