import { citationInputSchema, MAX_PHOTOS_PER_CITATION, type CitationInputValues, type PhotoType } from '../../contract/citations';
import type { OutboxCitation, OutboxDatabase, OutboxPhoto } from './outbox-db';

/** A photo ready to keep: compressed already, with its type. */
export interface TakenPhoto {
  content_type: PhotoType;
  bytes: ArrayBuffer;
}

/** SHA-256 of the bytes in lower-case hex: the photo's name on the server. */
export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Those that still need the network. */
export const isWaiting = (citation: Pick<OutboxCitation, 'state'>) => citation.state === 'saved' || citation.state === 'uploading';

/**
 * Saves a citation and its photos on the device in one transaction, before any network: what the officer wrote is
 * kept even if the tab closes the next moment. The id is made here, and it is the upload's idempotency key.
 */
export async function saveCitation(
  db: OutboxDatabase,
  officer: string,
  values: Omit<CitationInputValues, 'citation_id'>,
  photos: readonly TakenPhoto[],
  now = Date.now(),
  /** The violation's label as the form offered it, for My citations today. */
  violationLabel?: string,
): Promise<OutboxCitation> {
  if (photos.length > MAX_PHOTOS_PER_CITATION) throw new Error(`At most ${MAX_PHOTOS_PER_CITATION} photos.`);
  const input = citationInputSchema.parse({ ...values, citation_id: crypto.randomUUID() });
  const named: OutboxPhoto[] = [];
  for (const photo of photos) {
    const sha256 = await sha256Hex(photo.bytes);
    // The same photo twice is one photo (the server keeps it once too).
    if (!named.some((kept) => kept.sha256 === sha256)) named.push({ citation_id: input.citation_id, sha256, ...photo, uploaded: false });
  }
  const citation: OutboxCitation = {
    citation_id: input.citation_id,
    officer: officer.toLowerCase(),
    savedAt: now,
    input,
    ...(violationLabel !== undefined && { violation_label: violationLabel }),
    photos: named.map((photo) => photo.sha256),
    state: 'saved',
    attempts: 0,
    nextAttemptAt: 0,
  };
  await db.transaction('rw', db.citations, db.photos, async () => {
    await db.citations.add(citation);
    await db.photos.bulkAdd(named);
  });
  return citation;
}

/** The officer's citations saved since `since` (epoch ms), oldest first, with their upload state. */
export function citationsSince(db: OutboxDatabase, officer: string, since: number): Promise<OutboxCitation[]> {
  return db.citations.where('[officer+savedAt]').between([officer.toLowerCase(), since], [officer.toLowerCase(), Infinity]).toArray();
}

/** How many of the officer's citations wait for the network (the status line, the logout question). */
export async function waitingCount(db: OutboxDatabase, officer: string): Promise<number> {
  return db.citations
    .where('[officer+savedAt]')
    .between([officer.toLowerCase(), -Infinity], [officer.toLowerCase(), Infinity])
    .filter(isWaiting)
    .count();
}

/** Forgets uploaded citations (and their photos) saved before `before`: the server has them. Waiting ones stay. */
export async function forgetUploaded(db: OutboxDatabase, before: number): Promise<void> {
  await db.transaction('rw', db.citations, db.photos, async () => {
    const old = await db.citations.where('state').equals('uploaded').filter((citation) => citation.savedAt < before).primaryKeys();
    await db.photos.where('citation_id').anyOf(old).delete();
    await db.citations.bulkDelete(old);
  });
}
