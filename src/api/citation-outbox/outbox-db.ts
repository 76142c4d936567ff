import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { CitationInput, PhotoType } from '../../contract/citations';
import type { OfferedViolation } from '../../contract/citations';

/**
 * The citation outbox (issue 38; docs/decisions/0097): citations and their photos, saved on the device before any
 * network and kept until the server has them. A database of its own, never the enforcement store: that one is
 * deleted and rebuilt on a version change (spec §3, §8) and emptied at logout; this one is neither.
 */
export const OUTBOX_DATABASE = 'lpa-citation-outbox';

/** saved: waits for the network; uploading: being sent; uploaded: the server has it; refused: the server said no (why in `problem`). */
export type OutboxState = 'saved' | 'uploading' | 'uploaded' | 'refused';

export interface OutboxCitation {
  citation_id: string;
  /** Who wrote it: only their session uploads it. */
  officer: string;
  /** Upload order: the order the officer saved them in. */
  savedAt: number;
  input: CitationInput;
  /** The violation's label as the form offered it (My citations today); the server keeps its own. */
  violation_label?: string;
  /** The photos' hashes, in the order they were taken. */
  photos: string[];
  state: OutboxState;
  problem?: string;
  attempts: number;
  /** Not before this (epoch ms): the backoff after a failed attempt. */
  nextAttemptAt: number;
}

export interface OutboxPhoto {
  citation_id: string;
  sha256: string;
  content_type: PhotoType;
  bytes: ArrayBuffer;
  uploaded: boolean;
}

/**
 * A location's violations as last downloaded (docs/decisions/0097): kept here, beside the citations, because this
 * database survives the enforcement store's rebuilds and logouts, so the form offers them offline.
 */
export interface OutboxViolationList {
  location_id: number;
  violations: OfferedViolation[];
  /** When the device downloaded it (epoch ms). */
  downloadedAt: number;
}

export class OutboxDatabase extends Dexie {
  citations!: EntityTable<OutboxCitation, 'citation_id'>;
  photos!: Dexie.Table<OutboxPhoto, [string, string]>;
  violations!: EntityTable<OutboxViolationList, 'location_id'>;

  constructor(options?: DexieOptions) {
    super(OUTBOX_DATABASE, options);
    this.version(1).stores({
      citations: 'citation_id, [officer+savedAt], state',
      photos: '[citation_id+sha256], citation_id',
    });
    // Version 2 adds the locations' violations; the citations and photos stay as they are.
    this.version(2).stores({ violations: 'location_id' });
  }
}
