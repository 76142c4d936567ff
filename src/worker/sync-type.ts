import { ApiError, createApiClient } from '../api/client';
import type { SyncType } from '../contract/enforcement';
import type { SyncAuth, SyncProgress, SyncTypeRequest, SyncTypeResult } from './enforcement-worker-api';
import { describeError, type SyncCursorRow } from './store';
import type { LocalStore, Log } from './store-local';
import {
  preparePage,
  recordIdentity,
  type MonthlyParkerIds,
  type ParsedRecord,
  type PreparedPage,
} from './store-records';
import {
  advanceCursor,
  checkOverlap,
  cursorFromRow,
  FRESH_CURSOR,
  pageOrderProblem,
  planPage,
  restartRun,
  toCursorRow,
  type PagePlan,
  type SyncCursor,
} from './sync-cursor';
import { fetchSyncPage, SyncCancelledError, validatePage } from './sync-page-fetch';
import { yieldToMessages } from './yield';

/**
 * Sync of one type (spec §4, docs/enforcement-sync.md): pages of `pageSize` from the type's cursor, at most
 * `maxPages`, stopping at a short or empty page or the first failure. Each page is parsed, made searchable at once
 * (index + pending buffer), and staged with its cursor advance in one transaction while the next page is fetched.
 */

export interface SyncOptions {
  fetch: typeof globalThis.fetch | undefined;
  pageTimeoutMs: number;
  pageSize: number;
  maxPages: number;
  /** Pages parsed but not yet staged, at most: bounds memory when IndexedDB is slower than the network. */
  maxPendingPages: number;
  log: Log;
}

type StoppedBy = Extract<SyncTypeResult, { outcome: 'done' }>['stoppedBy'];

/** A page asked for: from where, its records (not yet validated), and how to cancel it alone. */
interface PageRequest {
  plan: PagePlan;
  records: Promise<unknown[]>;
  cancel: () => void;
}

function sameRequest(a: PagePlan, b: PagePlan): boolean {
  return a.fields.updated_at === b.fields.updated_at && a.fields.offset === b.fields.offset;
}

/**
 * The plan of the next page from records not yet validated: the cursor advanceCursor would give, when the records it
 * reads (the run of the last updated_at) look like records; null otherwise. Only a guess to ask early: the page is
 * used only when the plan from the validated records asks the same.
 */
function guessNextPlan(plan: PagePlan, raw: readonly unknown[]): PagePlan | null {
  if (!raw.every((record) => typeof record === 'object' && record !== null)) return null;
  const records = raw as readonly { updated_at: unknown }[];
  if (typeof records.at(-1)?.updated_at !== 'number') return null;
  return planPage(advanceCursor(plan, records as readonly { updated_at: number }[], () => ''), false);
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** Local calendar dates, as the officer's device sees them. */
export function sameLocalDate(aMs: number, bMs: number): boolean {
  const a = new Date(aMs);
  const b = new Date(bMs);
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function describeSyncError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return `The device is out of storage for offline records: ${error.message}`;
  }
  if (error instanceof DOMException) return `Could not store records (${error.name}): ${error.message}`;
  return describeError(error);
}

function report(onProgress: (progress: SyncProgress) => void, progress: SyncProgress, log: Log): void {
  try {
    // Over Comlink this returns a promise (the page may be gone); progress is best effort.
    const result: unknown = onProgress(progress);
    if (result instanceof Promise) result.catch(() => undefined);
  } catch (error) {
    log('Progress could not be reported', error);
  }
}

async function loadCursor(
  local: LocalStore,
  type: SyncType,
  locationIds: number[],
  signal: AbortSignal,
): Promise<{ cursor: SyncCursor; complete: boolean }> {
  const row = await local.db.sync_cursor.get(type);
  if (row === undefined) return { cursor: FRESH_CURSOR, complete: false };
  if (sameIds(row.locationIds, locationIds)) return { cursor: cursorFromRow(row), complete: row.complete === true };
  return { cursor: await local.rescope(type, row, locationIds, signal), complete: false };
}

export async function runSyncType(
  local: LocalStore,
  request: SyncTypeRequest,
  auth: SyncAuth,
  onProgress: (progress: SyncProgress) => void,
  options: SyncOptions,
  signal: AbortSignal,
): Promise<SyncTypeResult> {
  const { type, now } = request;
  const locationIds = [...new Set(request.locationIds)].sort((a, b) => a - b);
  if (locationIds.length === 0) return failedResult(new Error('There are no enforcement locations to sync'), null);

  let cursor: SyncCursor;
  let monthlyParkerIds: MonthlyParkerIds | null = null;
  let sessionToken: string | null;
  try {
    const loaded = await loadCursor(local, type, locationIds, signal);
    cursor = loaded.cursor;
    if (type === 'monthly_parkers') {
      // Spec §4: monthly parkers change rarely; once today's changes are held, the type is skipped. Only when the
      // last sync got to the end, though: one stopped early by a failure or the page cap goes on.
      if (loaded.complete && cursor.updatedAt !== null && sameLocalDate(cursor.updatedAt * 1000, now)) {
        return { outcome: 'skipped', reason: 'monthlyParkersUpdatedToday' };
      }
      monthlyParkerIds = await local.monthlyParkerIds();
    }
    // A Comlink proxy of SyncAuth answers property reads with a promise; a plain object with the value.
    sessionToken = (await Promise.resolve(auth.sessionToken)) ?? null;
  } catch (error) {
    return failedResult(error, null);
  }

  // Expansion waits while the sync runs (store-local.ts); staged pages are durable meanwhile.
  const resumeExpansion = local.deferExpansion();
  try {
    return await syncPages({ local, request, locationIds, cursor, monthlyParkerIds, auth, sessionToken, onProgress, options, signal });
  } finally {
    resumeExpansion();
  }
}

function failedResult(error: unknown, sessionError: string | null, pages = 0, records = 0): SyncTypeResult {
  return { outcome: 'failed', pages, records, message: describeSyncError(error), sessionError };
}

interface PagesContext {
  local: LocalStore;
  request: SyncTypeRequest;
  locationIds: number[];
  cursor: SyncCursor;
  monthlyParkerIds: MonthlyParkerIds | null;
  auth: SyncAuth;
  sessionToken: string | null;
  onProgress: (progress: SyncProgress) => void;
  options: SyncOptions;
  signal: AbortSignal;
}

/** The page pipeline: fetch (one page ahead), parse, make searchable, stage in order; then the type's totals. */
async function syncPages(context: PagesContext): Promise<SyncTypeResult> {
  const { local, request, locationIds, monthlyParkerIds, auth, sessionToken, onProgress, options, signal } = context;
  const { type, now } = request;
  let sessionError: string | null = null;
  let pages = 0;
  let records = 0;
  const failed = (error: unknown) => failedResult(error, sessionError, pages, records);

  const client = createApiClient({
    apiBase: request.apiBase,
    getIdToken: async () => (await Promise.resolve(auth.getIdToken())) ?? null,
    getSessionToken: () => sessionToken,
    onSessionError: (code) => {
      sessionError = code;
    },
    fetch: options.fetch,
  });
  // Cancels a page fetched ahead when the sync stops early, and everything when the caller cancels.
  const pageAbort = new AbortController();
  const cancel = () => pageAbort.abort();
  signal.addEventListener('abort', cancel, { once: true });
  if (signal.aborted) pageAbort.abort();

  const fetchPage = (plan: PagePlan): PageRequest => {
    // Its own cancel as well: a page asked ahead from a cursor that turns out wrong is dropped alone.
    const own = new AbortController();
    const cancelOwn = () => own.abort();
    pageAbort.signal.addEventListener('abort', cancelOwn, { once: true });
    if (pageAbort.signal.aborted) own.abort();
    const records = fetchSyncPage(
      client,
      { type, locationId: locationIds, limit: options.pageSize, ...plan.fields },
      { timeoutMs: options.pageTimeoutMs, signal: own.signal },
    ).finally(() => pageAbort.signal.removeEventListener('abort', cancelOwn));
    records.catch(() => undefined); // a page fetched ahead may be abandoned
    return { plan, records, cancel: cancelOwn };
  };

  let staging: Promise<void> = Promise.resolve();
  let stagingError: unknown = null;
  const unstaged: Promise<void>[] = [];
  const stage = (page: PreparedPage, cursorRow: SyncCursorRow): Promise<void> => {
    staging = staging
      .then(async () => {
        if (stagingError !== null) return;
        // As above: the page's rows are packed into columns next (2.5–3 ms, packed-rows.ts).
        await yieldToMessages();
        if (signal.aborted) throw new SyncCancelledError();
        await local.stage(page, cursorRow);
        pages++;
        records += page.rows.length;
        report(onProgress, { type, pagesDone: pages, recordsDone: records }, options.log);
      })
      .catch((error: unknown) => {
        stagingError ??= error;
      });
    return staging;
  };

  let failure: unknown = null;
  let stoppedBy: StoppedBy | null = null;
  let plan = planPage(context.cursor, true);
  let next: PageRequest | null = fetchPage(plan);
  for (let requestNumber = 1; next !== null; requestNumber++) {
    let raw: unknown[];
    try {
      raw = await next.records;
    } catch (error) {
      failure = error;
      break;
    }
    next = null;
    if (stagingError !== null) break;
    const full = raw.length >= options.pageSize;
    const more = full && requestNumber < options.maxPages;
    // The next page is asked at once from the cursor the records give before they are validated (the server's time
    // per page then overlaps this page's validation); when validation fails or gives another cursor, it is cancelled.
    let ahead: PageRequest | null = null;
    if (more) {
      const guess = guessNextPlan(plan, raw);
      if (guess !== null) ahead = fetchPage(guess);
    }
    const dropAhead = () => ahead?.cancel();
    let parsed: ParsedRecord[];
    try {
      parsed = await validatePage(type, raw);
    } catch (error) {
      dropAhead();
      failure = error;
      break;
    }
    const problem = pageOrderProblem(plan.cursor, parsed);
    if (problem !== null) {
      dropAhead();
      failure = new Error(`Unexpected response from the server: ${problem}`);
      break;
    }
    const overlap = checkOverlap(plan, parsed, recordIdentity);
    if (!overlap.ok) {
      dropAhead();
      // The run of records sharing the cursor's second changed on the server since: read it again from its start.
      // The cursor moves back at once, so that a sync stopped by the page cap right here resumes from there.
      const restarted = restartRun(plan.cursor);
      try {
        await local.db.sync_cursor.put(toCursorRow(type, restarted, locationIds));
      } catch (error) {
        failure = error;
        break;
      }
      if (requestNumber >= options.maxPages) {
        stoppedBy = 'pageCap';
        break;
      }
      plan = planPage(restarted, false);
      next = fetchPage(plan);
      continue;
    }
    const fresh = overlap.held > 0 ? parsed.slice(overlap.held) : parsed;
    if (fresh.length === 0) {
      dropAhead();
      stoppedBy = 'emptyPage';
      break;
    }
    const nextCursor = advanceCursor(plan, parsed, recordIdentity);
    const nextPlan = planPage(nextCursor, false);
    if (more) {
      if (ahead !== null && sameRequest(ahead.plan, nextPlan)) next = ahead;
      else {
        dropAhead();
        next = fetchPage(nextPlan);
      }
    }
    // Searches asked meanwhile go first; preparing the page is the next few ms of work (indexing it runs in slices).
    await yieldToMessages();

    let page: PreparedPage;
    try {
      page = preparePage(type, fresh, now, monthlyParkerIds);
    } catch (error) {
      failure = new Error(`Unexpected response from the server: ${describeError(error)}`);
      break;
    }
    await local.addPending(page);
    unstaged.push(stage(page, toCursorRow(type, nextCursor, locationIds)));
    plan = nextPlan;
    if (!full) stoppedBy = 'shortPage';
    else if (requestNumber >= options.maxPages) stoppedBy = 'pageCap';
    while (unstaged.length >= options.maxPendingPages) await unstaged.shift();
  }
  pageAbort.abort();
  signal.removeEventListener('abort', cancel);
  await staging;

  if (stagingError !== null) {
    if (signal.aborted) {
      // Clear or close follows; the index is reset or dropped there.
      local.abandonPending();
    } else {
      try {
        await local.rebuildIndex();
      } catch (error) {
        options.log('Rebuilding the plate index after a failed page failed', error);
        local.abandonPending();
      }
    }
    return failed(stagingError);
  }
  if (failure !== null) return failed(failure);
  if (stoppedBy === null) return failed(new Error('The sync stopped without a reason'));

  try {
    await local.ensureCurrent();
    const total = local.countHeld(type, Math.floor(now / 1000));
    const complete = stoppedBy !== 'pageCap';
    await local.db.transaction('rw', [local.db.sync_info, local.db.sync_cursor], async () => {
      await local.db.sync_info.put({ type, last_sync: now, total_transactions: total });
      if (complete) await local.db.sync_cursor.update(type, { complete: true });
    });
  } catch (error) {
    return failed(error);
  }
  try {
    await local.saveSnapshot();
  } catch (error) {
    options.log('Saving the plate index snapshot failed; the next start rebuilds it', error);
  }
  return { outcome: 'done', pages, records, stoppedBy };
}
