import { createHash } from 'node:crypto';
import {
  MAX_PHOTOS_PER_CITATION,
  type Citation,
  type CitationInput,
  type CitationListQuery,
  type CitationPhoto,
  type CitationVoid,
  type PhotoType,
} from '../../src/contract/citations';
import type { ListWindow, Paged, VersionConflict } from '../../src/contract/lists';
import type { LocationScope } from '../../src/permissions/scope';
import { keysetBatches, pageOf } from './paging';
import { iso, likeFragment, SqlParams } from './sql';
import { lastChange, writeAudit, type Actor } from './audit';
import type { Queryable } from './db';
import { violationLabelAt } from './violations';

/** Citations (issue 38): the row, its photos by hash, the office's list. docs/decisions/0097. */

const PHOTOS = `coalesce((SELECT json_agg(json_build_object('sha256', b.sha256, 'content_type', b.content_type,
    'size_bytes', b.size_bytes) ORDER BY p.position)
  FROM citation_photos p JOIN citation_photo_blobs b ON b.sha256 = p.sha256 WHERE p.citation_id = c.citation_id), '[]'::json)`;
const COLUMNS = `c.citation_id::text AS citation_id, c.location_id, l.name AS location_name, l.time_zone, c.license_plate,
  ${iso('c.issued_at')} AS issued_at, ${iso('c.received_at')} AS received_at,
  json_build_object('email', u.email, 'name', u.display_name) AS officer,
  c.violation, c.violation_label, c.fine_cents, c.notes, json_build_object('headline', c.verdict_headline, 'detail', c.verdict_detail) AS verdict,
  c.status, c.void_reason, CASE WHEN c.voided_at IS NULL THEN NULL ELSE ${iso('c.voided_at')} END AS voided_at,
  ${PHOTOS} AS photos, c.version`;
const JOINS = `FROM citations c JOIN locations l ON l.location_id = c.location_id JOIN users u ON u.user_id = c.officer_user_id`;

const SORT_EXPRESSIONS = {
  issued_at: 'c.issued_at',
  received_at: 'c.received_at',
  license_plate: 'c.license_plate',
  fine_cents: 'c.fine_cents',
} as const;

function filtered(scope: LocationScope, query: CitationListQuery) {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!scope.all) conditions.push(`c.location_id = ANY(${params.add(scope.ids)}::int[])`);
  if (query.q) conditions.push(`c.license_plate LIKE ${params.add(likeFragment(query.q.replace(/[\s-]/g, '').toUpperCase()))}`);
  if (query.status) conditions.push(`c.status = ${params.add(query.status)}`);
  if (query.locationId) conditions.push(`c.location_id = ${params.add(query.locationId)}::int`);
  if (query.officer) conditions.push(`u.email ILIKE ${params.add(likeFragment(query.officer))}`);
  const from = `${JOINS} WHERE ${conditions.length ? conditions.join(' AND ') : 'true'}`;
  // Newest first unless the list asks otherwise: the office reads today's citations.
  const sortExpr = SORT_EXPRESSIONS[query.sort ?? 'issued_at'];
  const direction = query.dir ?? (query.sort ? 'asc' : 'desc');
  return { params, from, sortExpr, direction };
}

export function listCitationsPage(db: Queryable, scope: LocationScope, query: CitationListQuery, window: ListWindow): Promise<Paged<Citation>> {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  const order = direction === 'asc' ? 'ASC' : 'DESC';
  return pageOf<Citation>(db, { select: COLUMNS, from, orderBy: `${sortExpr} ${order}, c.citation_id ${order}`, params, window });
}

export function citationBatches(db: Queryable, scope: LocationScope, query: CitationListQuery) {
  const { params, from, sortExpr, direction } = filtered(scope, query);
  return keysetBatches<Citation & Record<string, unknown>>(db, {
    select: COLUMNS,
    from,
    params,
    sortExpr,
    sortAlias: 'sort_key',
    keyExpr: 'c.citation_id',
    keyAlias: 'row_key',
    direction,
    batchSize: 1000,
  });
}

export async function findCitation(db: Queryable, citationId: string): Promise<Citation | undefined> {
  const { rows } = await db.query<Citation>(`SELECT ${COLUMNS} ${JOINS} WHERE c.citation_id = $1::uuid`, [citationId]);
  return rows[0];
}

/** The location of a citation, to check access before anything else is read; with `lock`, its row is locked. */
export async function citationLocation(tx: Queryable, citationId: string, lock = false): Promise<number | undefined> {
  const { rows } = await tx.query<{ location_id: number }>(
    `SELECT location_id FROM citations WHERE citation_id = $1::uuid${lock ? ' FOR UPDATE' : ''}`,
    [citationId],
  );
  return rows[0]?.location_id;
}

/** What a repeat is compared with: the content as received, and who sent it. */
export function citationRequestHash(officerUserId: number, input: CitationInput): string {
  const canonical = JSON.stringify([
    officerUserId,
    input.location_id,
    input.license_plate,
    new Date(input.issued_at).toISOString(),
    input.violation,
    input.fine_cents,
    input.notes,
    input.verdict.headline,
    input.verdict.detail,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export type CitationCreateResult =
  | { kind: 'ok'; citation: Citation; replayed: boolean }
  /** The id is taken by another citation (other content, or another officer's). */
  | { kind: 'idTaken' }
  | { kind: 'unknownLocation' }
  /** The violation is not on the location's list (src/contract/violations.ts). */
  | { kind: 'unknownViolation' };

/** The fields the History panel shows of a citation. */
async function auditedState(tx: Queryable, citationId: string) {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT c.location_id, c.license_plate, ${iso('c.issued_at')} AS issued_at, c.violation_label AS violation, c.fine_cents, c.notes,
            c.verdict_headline AS verdict, c.status, c.void_reason, c.version,
            ARRAY(SELECT p.sha256 FROM citation_photos p WHERE p.citation_id = c.citation_id ORDER BY p.position) AS photos
       FROM citations c WHERE c.citation_id = $1::uuid`,
    [citationId],
  );
  return rows[0]!;
}

/**
 * Writes a citation once per device-made id. The insert meets any other with the same id at the primary key (on
 * PostgreSQL the second waits for the first to commit, then finds its row); a repeat of the same content answers the
 * row that exists, anything else under the id is `idTaken`, and nothing is written for either.
 */
export async function createCitation(tx: Queryable, actor: Actor, input: CitationInput): Promise<CitationCreateResult> {
  const hash = citationRequestHash(actor.userId, input);
  const location = await tx.query('SELECT 1 FROM locations WHERE location_id = $1', [input.location_id]);
  if (!location.rows.length) return { kind: 'unknownLocation' };
  // The label it has now is the one the citation keeps (decision 0097): the office reads what the officer chose.
  const label = await violationLabelAt(tx, input.location_id, input.violation);
  if (label === undefined) return { kind: 'unknownViolation' };
  const { rows } = await tx.query<{ citation_id: string }>(
    `INSERT INTO citations (citation_id, location_id, officer_user_id, license_plate, issued_at, violation, fine_cents,
                            notes, verdict_headline, verdict_detail, request_hash, violation_label)
     VALUES ($1::uuid, $2, $3, $4, $5::timestamptz, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (citation_id) DO NOTHING RETURNING citation_id::text AS citation_id`,
    [input.citation_id, input.location_id, actor.userId, input.license_plate, input.issued_at, input.violation,
      input.fine_cents, input.notes, input.verdict.headline, input.verdict.detail, hash, label],
  );
  if (!rows.length) {
    const existing = await tx.query<{ request_hash: string }>('SELECT request_hash FROM citations WHERE citation_id = $1::uuid', [input.citation_id]);
    if (existing.rows[0]?.request_hash !== hash) return { kind: 'idTaken' };
    return { kind: 'ok', citation: (await findCitation(tx, input.citation_id))!, replayed: true };
  }
  await writeAudit(tx, { actor, entity: 'citation', entityId: input.citation_id, action: 'create', before: null, after: await auditedState(tx, input.citation_id) });
  return { kind: 'ok', citation: (await findCitation(tx, input.citation_id))!, replayed: false };
}

export type CitationVoidResult =
  | { kind: 'ok'; citation: Citation }
  | { kind: 'notFound' }
  | { kind: 'conflict'; conflict: VersionConflict }
  | { kind: 'alreadyVoided' };

/** Voids an issued citation made from `version`, with the reason, in the caller's transaction (row locked). */
export async function voidCitation(tx: Queryable, actor: Actor, citationId: string, change: CitationVoid, now: Date): Promise<CitationVoidResult> {
  const { rows } = await tx.query<{ version: number; status: string }>(
    'SELECT version, status FROM citations WHERE citation_id = $1::uuid FOR UPDATE',
    [citationId],
  );
  const current = rows[0];
  if (!current) return { kind: 'notFound' };
  if (current.version !== change.version) {
    return { kind: 'conflict', conflict: { currentVersion: current.version, ...(await lastChange(tx, 'citation', citationId)) } };
  }
  if (current.status === 'voided') return { kind: 'alreadyVoided' };
  const before = await auditedState(tx, citationId);
  await tx.query(
    `UPDATE citations SET status = 'voided', void_reason = $2, voided_at = $3::timestamptz, voided_by = $4,
            version = version + 1, updated_at = now()
      WHERE citation_id = $1::uuid`,
    [citationId, change.reason, now.toISOString(), actor.userId],
  );
  await writeAudit(tx, { actor, entity: 'citation', entityId: citationId, action: 'void', before, after: await auditedState(tx, citationId) });
  return { kind: 'ok', citation: (await findCitation(tx, citationId))! };
}

export type PhotoAddResult =
  | { kind: 'ok'; photo: CitationPhoto; replayed: boolean }
  | { kind: 'notFound' }
  | { kind: 'tooMany' }
  | { kind: 'voided' };

/**
 * Adds a photo to a citation, stored by the SHA-256 of its bytes: the same bytes again (a retry, a second tab) are
 * the photo it has, never a second one. The citation's row is locked, so concurrent uploads count its photos right.
 */
export async function addCitationPhoto(
  tx: Queryable,
  actor: Actor,
  citationId: string,
  photo: { sha256: string; contentType: PhotoType; bytes: Buffer },
): Promise<PhotoAddResult> {
  const { rows } = await tx.query<{ status: string }>('SELECT status FROM citations WHERE citation_id = $1::uuid FOR UPDATE', [citationId]);
  const citation = rows[0];
  if (!citation) return { kind: 'notFound' };
  const answer = { sha256: photo.sha256, content_type: photo.contentType, size_bytes: photo.bytes.length };
  const existing = await tx.query<{ position: number; content_type: PhotoType; size_bytes: number }>(
    `SELECT p.position, b.content_type, b.size_bytes FROM citation_photos p JOIN citation_photo_blobs b ON b.sha256 = p.sha256
      WHERE p.citation_id = $1::uuid ORDER BY p.position`,
    [citationId],
  );
  const mine = await tx.query('SELECT 1 FROM citation_photos WHERE citation_id = $1::uuid AND sha256 = $2', [citationId, photo.sha256]);
  if (mine.rows.length) return { kind: 'ok', photo: answer, replayed: true };
  if (citation.status === 'voided') return { kind: 'voided' };
  if (existing.rows.length >= MAX_PHOTOS_PER_CITATION) return { kind: 'tooMany' };
  // The blob may exist already (the same photo on another citation): bytes equal by their hash, kept once.
  await tx.query(
    `INSERT INTO citation_photo_blobs (sha256, content_type, size_bytes, bytes) VALUES ($1, $2, $3, decode($4, 'base64'))
     ON CONFLICT (sha256) DO NOTHING`,
    [photo.sha256, photo.contentType, photo.bytes.length, photo.bytes.toString('base64')],
  );
  const before = await auditedState(tx, citationId);
  await tx.query('INSERT INTO citation_photos (citation_id, sha256, position) VALUES ($1::uuid, $2, $3)', [
    citationId,
    photo.sha256,
    existing.rows.length + 1,
  ]);
  await writeAudit(tx, { actor, entity: 'citation', entityId: citationId, action: 'add photo', before, after: await auditedState(tx, citationId) });
  return { kind: 'ok', photo: answer, replayed: false };
}

/** A citation's photo: its type and bytes, or undefined when the citation has no photo with that hash. */
export async function readCitationPhoto(db: Queryable, citationId: string, sha256: string): Promise<{ contentType: PhotoType; bytes: Buffer } | undefined> {
  const { rows } = await db.query<{ content_type: PhotoType; data: string }>(
    `SELECT b.content_type, encode(b.bytes, 'base64') AS data
       FROM citation_photos p JOIN citation_photo_blobs b ON b.sha256 = p.sha256
      WHERE p.citation_id = $1::uuid AND p.sha256 = $2`,
    [citationId, sha256],
  );
  const row = rows[0];
  return row && { contentType: row.content_type, bytes: Buffer.from(row.data, 'base64') };
}
