import { createHash } from 'node:crypto';
import {
  CITATIONS_EXPORT_PATH,
  CITATIONS_PATH,
  citationInputSchema,
  citationListQuerySchema,
  citationPageSchema,
  citationParamsSchema,
  citationPhotoInputSchema,
  citationPhotoParamsSchema,
  citationPhotoSchema,
  citationSchema,
  citationVoidSchema,
  ISSUED_AT_AHEAD_MS,
  ISSUED_AT_MAX_AGE_MS,
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_CITATION,
  type Citation,
  type PhotoType,
} from '../../src/contract/citations';
import { CITATION_VIOLATIONS_PATH, citationViolationsSchema } from '../../src/contract/violations';
import { centsToDollarsText } from '../../src/contract/money-text';
import type { AccessLevel } from '../../src/permissions/features';
import {
  addCitationPhoto,
  citationBatches,
  citationLocation,
  createCitation,
  findCitation,
  listCitationsPage,
  readCitationPhoto,
  voidCitation,
} from '../db/citations';
import type { Queryable } from '../db/db';
import { offeredViolations } from '../db/violations';
import type { ApiApp, RouteDeps } from '../http/api-app';
import { badRequest, conflict, fieldProblems, notFound, ok, refused, versionConflict, type Refusal } from '../http/outcome';
import { serverSection, type SectionRequest } from '../http/section-kit';

/**
 * Citations (issue 38), on the enforcement feature `e` (docs/decisions/0097): writing one needs add at its location,
 * reading view, voiding edit. A citation outside the user's enforcement view answers 404 like a missing one.
 */
const CSV_HEADER = ['Citation ID', 'Issued (UTC)', 'Received (UTC)', 'Location ID', 'Location', 'Plate', 'Violation', 'Fine ($)', 'Officer', 'Verdict seen', 'Notes', 'Status', 'Void reason', 'Photos'];
const csvRow = (citation: Citation) => [
  citation.citation_id,
  citation.issued_at,
  citation.received_at,
  citation.location_id,
  citation.location_name,
  citation.license_plate,
  citation.violation_label,
  centsToDollarsText(citation.fine_cents),
  citation.officer.email,
  citation.verdict.headline,
  citation.notes,
  citation.status,
  citation.void_reason,
  citation.photos.length,
];

const missing = (citationId: string) => notFound(`Citation ${citationId} was not found among the citations of your locations.`);

type Request = Pick<SectionRequest<unknown, unknown, unknown, unknown>, 'lacking'> & { db: Queryable };

/** Spec §5 on one location: unseen is 404 alike with missing; seen but without `level` a 403 naming the verb. */
async function refusalAt(request: Request, citationId: string, level: AccessLevel, verb: string, lock = false): Promise<Refusal | null> {
  const locationId = await citationLocation(request.db, citationId, lock);
  if (locationId === undefined || request.lacking('view', [locationId]).length) return missing(citationId);
  return request.lacking(level, [locationId]).length ? refused(`You do not have permission to ${verb} citations at location ${locationId}.`) : null;
}

/** The first bytes of each photo type: a file must be what it says, not just be named so. */
const SIGNATURES: Record<PhotoType, (bytes: Buffer) => boolean> = {
  'image/jpeg': (bytes) => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/webp': (bytes) => bytes.length > 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP',
};

export function registerCitationRoutes(app: ApiApp, deps: RouteDeps): void {
  const section = serverSection(app, deps, { tag: 'citations', feature: 'e', records: 'citations' });

  section.list({
    path: CITATIONS_PATH,
    summary: "Citations at the user's enforcement locations, filtered, sorted and paged on the server (newest first)",
    query: citationListQuerySchema,
    page: citationPageSchema,
    locationFilter: 'the citations',
    read: ({ db, scope, query }, window) => listCitationsPage(db, scope(), query, window),
    csv: {
      path: CITATIONS_EXPORT_PATH,
      summary: 'Every citation the list shows for these filters, as CSV (streamed)',
      name: 'citations',
      header: CSV_HEADER,
      batches: ({ db, scope, query }) => citationBatches(db, scope(), query),
      row: csvRow,
    },
  });

  section.route({
    method: 'post',
    path: CITATIONS_PATH,
    summary:
      'Writes a citation under the id the device made (enforcement add at its location). The id is the idempotency key: the same id and content answer the citation that exists (Idempotent-Replayed: true), other content under it is 409',
    access: { level: 'add', refusal: 'You do not have permission to write citations.' },
    body: citationInputSchema,
    data: citationSchema,
    answers: 'The citation',
    errors: [409],
    writes: true,
    handle: async ({ db, actor, body, lacking, now }) => {
      if (lacking('add', [body.location_id]).length) {
        return refused(`You do not have permission to write citations at location ${body.location_id}.`);
      }
      const issuedAt = Date.parse(body.issued_at);
      if (issuedAt > now.getTime() + ISSUED_AT_AHEAD_MS) return fieldProblems({ issued_at: 'The time is in the future: check the device’s clock.' });
      if (issuedAt < now.getTime() - ISSUED_AT_MAX_AGE_MS) return fieldProblems({ issued_at: 'The citation is more than 30 days old; the office must enter it by hand.' });
      const result = await createCitation(db, actor, body);
      switch (result.kind) {
        case 'ok':
          return ok(result.citation, result.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
        case 'unknownLocation':
          return fieldProblems({ location_id: `No location ${body.location_id}.` });
        case 'unknownViolation':
          return fieldProblems({
            violation: `"${body.violation}" is not on the list of violations of location ${body.location_id}. Nothing was saved; choose one from the location’s list.`,
          });
        case 'idTaken':
          return conflict(`Citation ${body.citation_id} exists with other content. Nothing was saved; a new citation needs a new id.`);
      }
    },
  });

  section.route({
    method: 'get',
    path: CITATION_VIOLATIONS_PATH,
    summary:
      "The active violations with their usual fines of each location where the user may write citations (enforcement add), for the officer's device to keep offline",
    access: { level: 'add', refusal: 'You do not have permission to write citations.' },
    data: citationViolationsSchema,
    answers: 'The lists, by location',
    handle: async ({ db, scope }) => ok(await offeredViolations(db, scope('add'))),
  });

  section.route({
    method: 'get',
    path: `${CITATIONS_PATH}/{citationId}`,
    summary: 'One citation with its photos; 404 alike for a missing one and one outside your enforcement locations',
    access: { level: 'view' },
    params: citationParamsSchema,
    data: citationSchema,
    answers: 'The citation',
    errors: [404],
    handle: async (request) => {
      const { citationId } = request.params;
      return (await refusalAt(request, citationId, 'view', 'see')) ?? ok((await findCitation(request.db, citationId))!);
    },
  });

  section.history({
    path: `${CITATIONS_PATH}/{citationId}/history`,
    summary: "The citation's audit trail, newest first",
    params: citationParamsSchema,
    errors: [404],
    trail: ({ citationId }) => ({ entity: 'citation', id: citationId }),
    hidden: (request) => refusalAt(request, request.params.citationId, 'view', 'see'),
  });

  section.route({
    method: 'post',
    path: `${CITATIONS_PATH}/{citationId}/void`,
    summary: 'Voids a citation made from `version`, with the reason (enforcement edit at its location); 409 if it changed since or is void already',
    access: { level: 'edit', refusal: 'You do not have permission to void citations.' },
    params: citationParamsSchema,
    body: citationVoidSchema,
    data: citationSchema,
    answers: 'The voided citation',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { citationId } = request.params;
      const refusal = await refusalAt(request, citationId, 'edit', 'void', true);
      if (refusal) return refusal;
      const result = await voidCitation(request.db, request.actor, citationId, request.body, request.now);
      switch (result.kind) {
        case 'ok':
          return ok(result.citation);
        case 'notFound':
          return missing(citationId);
        case 'conflict':
          return versionConflict(`Citation ${citationId}`, result.conflict);
        case 'alreadyVoided':
          return conflict(`Citation ${citationId} is void already.`);
      }
    },
  });

  section.route({
    method: 'post',
    path: `${CITATIONS_PATH}/{citationId}/photos/{sha256}`,
    summary: `Adds a photo to a citation under the SHA-256 of its bytes (enforcement add at its location; at most ${MAX_PHOTOS_PER_CITATION}, each a JPEG, PNG or WebP of at most ${MAX_PHOTO_BYTES / 1_000_000} MB). The same photo again answers the one stored (Idempotent-Replayed: true)`,
    access: { level: 'add', refusal: 'You do not have permission to add photos to citations.' },
    params: citationPhotoParamsSchema,
    body: citationPhotoInputSchema,
    data: citationPhotoSchema,
    answers: 'The photo',
    errors: [404, 409],
    writes: true,
    handle: async (request) => {
      const { citationId, sha256 } = request.params;
      const { content_type: contentType, data_base64: data } = request.body;
      const refusal = await refusalAt(request, citationId, 'add', 'add photos to', true);
      if (refusal) return refusal;
      const bytes = Buffer.from(data, 'base64');
      // Node's decoder skips what is not base64; the schema allowed only base64 characters, so only padding is odd.
      if (bytes.toString('base64').replace(/=+$/, '') !== data.replace(/=+$/, '')) return fieldProblems({ data_base64: 'The photo must be base64.' });
      if (bytes.length > MAX_PHOTO_BYTES) return fieldProblems({ data_base64: `A photo can be at most ${MAX_PHOTO_BYTES / 1_000_000} MB.` });
      if (!SIGNATURES[contentType](bytes)) return fieldProblems({ data_base64: `The photo is not a ${contentType.slice(6).toUpperCase()} image.` });
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
        return badRequest('The photo’s bytes do not match its SHA-256 in the path: it was damaged on the way. Send it again.');
      }
      const result = await addCitationPhoto(request.db, request.actor, citationId, { sha256, contentType, bytes });
      switch (result.kind) {
        case 'ok':
          return ok(result.photo, result.replayed ? { 'Idempotent-Replayed': 'true' } : undefined);
        case 'notFound':
          return missing(citationId);
        case 'tooMany':
          return conflict(`Citation ${citationId} has ${MAX_PHOTOS_PER_CITATION} photos already, the most it may have.`);
        case 'voided':
          return conflict(`Citation ${citationId} is void; it takes no more photos.`);
      }
    },
  });

  section.answer({
    method: 'get',
    path: `${CITATIONS_PATH}/{citationId}/photos/{sha256}`,
    summary: "One of a citation's photos, its bytes as they were uploaded",
    access: { level: 'view' },
    params: citationPhotoParamsSchema,
    mediaType: 'image/*',
    answers: 'The photo (image/jpeg, image/png or image/webp)',
    errors: [404],
    handle: async (request) => {
      const { citationId, sha256 } = request.params;
      const refusal = await refusalAt(request, citationId, 'view', 'see');
      if (refusal) return refusal;
      const photo = await readCitationPhoto(request.db, citationId, sha256);
      if (!photo) return notFound(`Citation ${citationId} has no photo ${sha256}.`);
      // A photo never changes under its hash: private (it is staff data), but cached as long as the browser likes.
      return new Response(new Uint8Array(photo.bytes), {
        headers: { 'Content-Type': photo.contentType, 'Cache-Control': 'private, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' },
      });
    },
  });
}
