import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { CitationInput, PhotoType } from '../../contract/citations';

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

export class OutboxDatabase extends Dexie {
  citations!: EntityTable<OutboxCitation, 'citation_id'>;
  photos!: Dexie.Table<OutboxPhoto, [string, string]>;

  constructor(options?: DexieOptions) {
    super(OUTBOX_DATABASE, options);
    this.version(1).stores({
      citations: 'citation_id, [officer+savedAt], state',
      photos: '[citation_id+sha256], citation_id',
    });
  }
}
