import * as z from 'zod/mini';
import { unexpectedData, type ApiClient } from '../api/client';
import {
  ENFORCEMENT_TRANSACTIONS_PATH,
  SYNC_RECORD_SCHEMAS,
  type EnforcementRequest,
  type SyncType,
} from '../contract/enforcement';
import type { ParsedRecord } from './store-records';

import { yieldToMessages } from './yield';

/**
 * One page of the enforcement sync call (spec §7): fetched as an array (fetchSyncPage), then parsed record by record
 * with the contract's schema (validatePage). Two steps so that the next page can be asked from the cursor the page's
 * last records give before the 2000 records are validated (sync-type.ts), and so that validation yields to searches
 * between slices instead of holding the worker for one 10–20 ms task.
 */

export const PAGE_TIMEOUT_MS = 30_000;

/** Records validated between two yields: ~1–2 ms of work. */
const VALIDATE_SLICE = 250;

const PAGE_ARRAY = z.array(z.unknown());

export class PageTimeoutError extends Error {
  override readonly name = 'PageTimeoutError';
  constructor(timeoutMs: number) {
    super(`The server did not answer within ${timeoutMs / 1000} s`);
  }
}

export class SyncCancelledError extends Error {
  override readonly name = 'SyncCancelledError';
  constructor() {
    super('The sync was cancelled');
  }
}

export function syncPagePath(type: SyncType): string {
  return `${ENFORCEMENT_TRANSACTIONS_PATH}?type=${type}`;
}

/**
 * Fetches one page, its records not yet validated; a page taking longer than `timeoutMs` (including the ID token
 * lookup and the body) is aborted and fails, as does a cancelled one. Data that is not an array fails the page.
 */
export async function fetchSyncPage(
  client: ApiClient,
  request: EnforcementRequest,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<unknown[]> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const cancel = () => controller.abort();
  options.signal.addEventListener('abort', cancel, { once: true });
  if (options.signal.aborted) controller.abort();
  const stopped = new Promise<never>((_, reject) => {
    const fail = () => reject(timedOut ? new PageTimeoutError(options.timeoutMs) : new SyncCancelledError());
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  try {
    return await Promise.race([client.post(syncPagePath(request.type), request, PAGE_ARRAY, { signal: controller.signal }), stopped]);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', cancel);
  }
}

/**
 * Parses a page's records with the contract's schema of `type`, VALIDATE_SLICE at a time with a yield between
 * slices. A malformed record fails the whole page (ApiError naming the record and field, as the client's would).
 */
export async function validatePage(type: SyncType, records: readonly unknown[]): Promise<ParsedRecord[]> {
  const schema = SYNC_RECORD_SCHEMAS[type] as unknown as z.ZodMiniType<ParsedRecord>;
  const parsed: ParsedRecord[] = new Array(records.length);
  for (let from = 0; from < records.length; from += VALIDATE_SLICE) {
    if (from > 0) await yieldToMessages();
    const to = Math.min(from + VALIDATE_SLICE, records.length);
    for (let i = from; i < to; i++) {
      const result = z.safeParse(schema, records[i]);
      if (!result.success) {
        // The issues' paths start at the record: prefixed with its place in the page's data (the error is ours).
        for (const issue of result.error.issues) issue.path.unshift(i);
        throw unexpectedData('POST', syncPagePath(type), result.error, 200);
      }
      parsed[i] = result.data;
    }
  }
  return parsed;
}
