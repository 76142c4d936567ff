import { ApiError, type ApiClient } from '../client';
import { CITATIONS_PATH, citationPhotoPath, citationPhotoSchema, citationSchema } from '../../contract/citations';
import type { OutboxCitation, OutboxDatabase } from './outbox-db';
import { isWaiting } from './outbox';

/** One tab uploads at a time: the others see the lock taken and leave the work to it (the server is idempotent too). */
export const UPLOAD_LOCK = 'lpa-citation-upload';
/** The longest wait between attempts while a citation keeps failing. */
export const MAX_BACKOFF_MS = 5 * 60 * 1000;
/** How often a tab looks for work when nothing is waiting on a backoff (another tab's saves, a lost lock). */
export const IDLE_CHECK_MS = 30_000;

/** Every status the outbox shows in place: no toast for an upload the officer did not ask for just now. */
const QUIET = { quietStatuses: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504] } as const;

/** What the uploader asks of Web Locks: the lock if no other tab holds it, else null at once. */
export interface UploadLocks {
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: Lock | null) => Promise<T> | T): Promise<T>;
}

export interface UploadDeps {
  db: OutboxDatabase;
  api: ApiClient;
  /** The signed-in officer: only their citations are sent, under their session. */
  officer: string;
  now?: () => number;
  /** Web Locks (navigator.locks); null where the browser has none (then tabs may both send: the server answers once). */
  locks?: UploadLocks | null;
  random?: () => number;
}

export type UploadRun = 'done' | 'waiting' | 'busy';

/** The wait before attempt `attempts + 1`: doubling from a second, up to 5 minutes, spread so tabs and devices do not meet. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.5 + random() / 2));
}

/**
 * A refusal the server will repeat, whatever the retries: the citation is kept, marked refused with the reason. Any
 * other failure (no network, a server fault, a slow proxy, a session to renew) is tried again after a backoff.
 */
function refusalOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status === undefined) return null;
  if (error.status >= 500 || error.status === 401 || error.status === 408 || error.status === 429) return null;
  return error.message || `Refused (HTTP ${error.status}).`;
}

function base64Of(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let start = 0; start < view.length; start += 0x8000) binary += String.fromCharCode(...view.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** The officer's first citation still waiting, in the order they were saved. */
function firstWaiting(db: OutboxDatabase, officer: string): Promise<OutboxCitation | undefined> {
  return db.citations.where('[officer+savedAt]').between([officer, -Infinity], [officer, Infinity]).filter(isWaiting).first();
}

async function send(deps: UploadDeps, citation: OutboxCitation): Promise<void> {
  const { db, api } = deps;
  const id = citation.citation_id;
  // The same id and content answer the citation the server has: a retry after a lost answer makes no second one.
  await api.post(CITATIONS_PATH, citation.input, citationSchema, QUIET);
  for (const sha256 of citation.photos) {
    const photo = await db.photos.get([id, sha256]);
    if (!photo || photo.uploaded) continue;
    // Named by its hash: sent again, it is the photo the server has.
    await api.post(citationPhotoPath(id, sha256), { content_type: photo.content_type, data_base64: base64Of(photo.bytes) }, citationPhotoSchema, QUIET);
    await db.photos.update([id, sha256], { uploaded: true });
  }
}

/**
 * Sends the officer's waiting citations, oldest first, each with its photos, until none is left ('done') or one
 * failed and waits for its backoff ('waiting': the ones after it wait too, so the office receives them in order). A
 * refused citation is marked so and the next one goes. 'busy': another tab holds the upload lock.
 */
export async function uploadWaiting(deps: UploadDeps): Promise<UploadRun> {
  const now = deps.now ?? Date.now;
  const officer = deps.officer.toLowerCase();
  const work = async (): Promise<UploadRun> => {
    for (;;) {
      const citation = await firstWaiting(deps.db, officer);
      if (!citation) return 'done';
      if (citation.nextAttemptAt > now()) return 'waiting';
      const id = citation.citation_id;
      await deps.db.citations.update(id, { state: 'uploading' });
      try {
        await send(deps, citation);
        await deps.db.citations.update(id, { state: 'uploaded', problem: undefined });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal !== null) {
          await deps.db.citations.update(id, { state: 'refused', problem: refusal });
          continue;
        }
        const attempts = citation.attempts + 1;
        await deps.db.citations.update(id, { state: 'saved', attempts, nextAttemptAt: now() + backoffMs(attempts, deps.random) });
        return 'waiting';
      }
    }
  };
  if (!deps.locks) return work();
  return deps.locks.request(UPLOAD_LOCK, { ifAvailable: true }, (lock) => (lock ? work() : 'busy'));
}

/** When the officer's next waiting citation may be tried (epoch ms), or null when none waits. */
export async function nextAttemptAt(db: OutboxDatabase, officer: string): Promise<number | null> {
  return (await firstWaiting(db, officer.toLowerCase()))?.nextAttemptAt ?? null;
}

/**
 * Keeps uploading while the tab is open: at once, after each save (`kick`), when the network comes back, at the
 * next backoff's end, and every 30 s besides. `stop` ends it (logout, another user).
 */
export function startUploader(deps: UploadDeps & { onChange?: () => void; target?: Pick<Window, 'addEventListener' | 'removeEventListener'> }) {
  const now = deps.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(kick, Math.max(0, delay));
  };
  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        await uploadWaiting(deps);
      } catch {
        // IndexedDB gone (private mode ended, quota): nothing to send now; the next check tries again.
      }
      deps.onChange?.();
      const next = await nextAttemptAt(deps.db, deps.officer).catch(() => null);
      schedule(next === null ? IDLE_CHECK_MS : Math.min(IDLE_CHECK_MS, next - now()));
    })().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        kick();
      }
    });
  }
  const target = deps.target ?? globalThis;
  target.addEventListener('online', kick);
  kick();
  return {
    kick,
    /** Resolves once the run in progress (if any) has ended. */
    settled: () => running ?? Promise.resolve(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      target.removeEventListener('online', kick);
    },
  };
}
