import type { SyncType } from '../contract/enforcement';
import type { SyncCursorRow } from './store';

/**
 * The sync cursor of one type (spec §4, docs/enforcement-sync.md "Cursor and ties"): the newest updated_at held
 * (unix seconds), how many records with exactly that updated_at are held, and which record came last. The server
 * orders by (updated_at, key) and returns records with updated_at ≥ the given one after skipping `offset`, so
 * (updatedAt, offset) resumes right after the last record held, even inside a run of records sharing one second.
 *
 * An offset counts positions, and positions shift when the server changes a record of that run between two syncs
 * (it moves to a later second, or a record updated in that very second joins the run): the offset would then skip
 * records never received. So the first page of each sync is asked one record early, and that record must be the
 * last one held; when it is not, the run is fetched again from its start (offset 0). Records are stored by key, so
 * the overlap stores nothing twice. Later pages of the same sync follow within moments and are not checked, which
 * keeps 50 pages of 2000 at 100,000 new records.
 */
export interface SyncCursor {
  /** Unix seconds; null before the first page of a fresh store. */
  updatedAt: number | null;
  offset: number;
  /** Identity of the last record held (recordIdentity); null when not known. */
  lastIdentity: string | null;
}

export const FRESH_CURSOR: SyncCursor = { updatedAt: null, offset: 0, lastIdentity: null };

/** One page request: where from, whether it is asked one record early, and its request fields. */
export interface PagePlan {
  cursor: SyncCursor;
  overlap: boolean;
  /** updated_at in milliseconds (absent on a fresh store) and offset. */
  fields: { updated_at?: number; offset: number };
}

export function planPage(cursor: SyncCursor, checkLastHeld: boolean): PagePlan {
  if (cursor.updatedAt === null) return { cursor, overlap: false, fields: { offset: cursor.offset } };
  const overlap = checkLastHeld && cursor.offset > 0 && cursor.lastIdentity !== null;
  return { cursor, overlap, fields: { updated_at: cursor.updatedAt * 1000, offset: overlap ? cursor.offset - 1 : cursor.offset } };
}

/**
 * For a page asked one record early: whether its first record is the last one held, unchanged in its second, and so
 * how many records at its start are held already (0 or 1).
 */
export function checkOverlap<R extends { updated_at: number }>(
  plan: PagePlan,
  records: readonly R[],
  identity: (record: R) => string,
): { ok: true; held: number } | { ok: false } {
  if (!plan.overlap) return { ok: true, held: 0 };
  const first = records[0];
  if (first === undefined || first.updated_at !== plan.cursor.updatedAt || identity(first) !== plan.cursor.lastIdentity) {
    return { ok: false };
  }
  return { ok: true, held: 1 };
}

/** Where to go when the overlap check fails: the start of the run of the cursor's second. */
export function restartRun(cursor: SyncCursor): SyncCursor {
  return { updatedAt: cursor.updatedAt, offset: 0, lastIdentity: null };
}

/**
 * The cursor after a page (all its records, an overlapping one included). Records with the page's last updated_at
 * extend the run the cursor counts when it is the same second, and start a new run otherwise.
 */
export function advanceCursor<R extends { updated_at: number }>(
  plan: PagePlan,
  records: readonly R[],
  identity: (record: R) => string,
): SyncCursor {
  const last = records.at(-1);
  if (last === undefined) return plan.cursor;
  let run = 0;
  for (let i = records.length - 1; i >= 0 && records[i]!.updated_at === last.updated_at; i--) run++;
  return {
    updatedAt: last.updated_at,
    offset: last.updated_at === plan.cursor.updatedAt ? plan.fields.offset + run : run,
    lastIdentity: identity(last),
  };
}

/**
 * Null when the page is in the order the cursor relies on (updated_at never decreasing, none before the cursor);
 * otherwise why not. A page out of order would move the cursor past records never received.
 */
export function pageOrderProblem(cursor: SyncCursor, records: readonly { updated_at: number }[]): string | null {
  let previous = cursor.updatedAt ?? 0;
  for (let i = 0; i < records.length; i++) {
    const updatedAt = records[i]!.updated_at;
    if (updatedAt < previous) {
      return `record ${i} has updated_at ${updatedAt}, before ${previous}: the page is not ordered by updated_at`;
    }
    previous = updatedAt;
  }
  return null;
}

export function cursorFromRow(row: SyncCursorRow): SyncCursor {
  return { updatedAt: row.updated_at, offset: row.offset, lastIdentity: row.last_identity ?? null };
}

export function toCursorRow(type: SyncType, cursor: SyncCursor, locationIds: number[]): SyncCursorRow {
  return {
    type,
    updated_at: cursor.updatedAt,
    offset: cursor.offset,
    last_identity: cursor.lastIdentity,
    locationIds,
    complete: false,
  };
}
