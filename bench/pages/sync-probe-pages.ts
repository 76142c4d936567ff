/**
 * The enforcement sync call paged plainly (spec §7), for the sync bench's probe worker: POST a type's pages in order,
 * each asked from the cursor the last page gives (its last updated_at and how many records share it), parsed with
 * JSON.parse and nothing else. The bare baseline of the fresh sync, and the source of the per-row ceiling's rows.
 */

export interface PageSource {
  /** The API (or the bench's copy of its pages served from memory). */
  apiBase: string;
  /** Authorization and session headers, as the worker's client sends them. */
  headers: Record<string, string>;
  locationIds: number[];
  pageSize: number;
}

export interface SyncRecord {
  updated_at: number;
  [field: string]: unknown;
}

const SYNC_PATH = '/enforcement/transactions';

/** One page: the records with updated_at ≥ `updatedAtMs` (ms, absent from the start) after skipping `offset`. */
export async function fetchPage(source: PageSource, type: string, updatedAtMs: number | undefined, offset: number): Promise<SyncRecord[]> {
  const response = await fetch(`${source.apiBase}${SYNC_PATH}?type=${type}`, {
    method: 'POST',
    credentials: 'include',
    headers: { ...source.headers, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ type, locationId: source.locationIds, limit: source.pageSize, updated_at: updatedAtMs, offset }),
  });
  const body = (await response.json()) as { success: boolean; data?: SyncRecord[] };
  if (!response.ok || !body.success || !Array.isArray(body.data)) throw new Error(`${type}: HTTP ${response.status}, ${JSON.stringify(body).slice(0, 200)}`);
  return body.data;
}

/**
 * Every page of `type` until a short one, `onPage` called with each (awaited before the next is asked: the ceiling
 * puts a page's rows before fetching the next). Stops early once `limit` records were handed over.
 */
export async function pageThrough(
  source: PageSource,
  type: string,
  onPage: (records: SyncRecord[]) => Promise<void> | void,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ requests: number; records: number }> {
  let updatedAt: number | undefined;
  let offset = 0;
  let requests = 0;
  let records = 0;
  for (;;) {
    const page = await fetchPage(source, type, updatedAt === undefined ? undefined : updatedAt * 1000, offset);
    requests++;
    const taken = page.slice(0, Math.max(0, limit - records));
    records += taken.length;
    if (taken.length > 0) await onPage(taken);
    if (page.length < source.pageSize || records >= limit) break;
    const last = page[page.length - 1]!.updated_at;
    let run = 0;
    for (let i = page.length - 1; i >= 0 && page[i]!.updated_at === last; i--) run++;
    offset = updatedAt === last ? offset + run : run;
    updatedAt = last;
  }
  return { requests, records };
}
