import * as z from 'zod/mini';
import type { ApiClient } from '../api/client';
import {
  ENFORCEMENT_TRANSACTIONS_PATH,
  SYNC_RECORD_SCHEMAS,
  SYNC_TYPES,
  type EnforcementRequest,
  type SyncType,
} from '../contract/enforcement';
import type { ParsedRecord } from './store-records';

/** One page of the enforcement sync call (spec §7), parsed record by record with the contract's schema. */

export const PAGE_TIMEOUT_MS = 30_000;

const PAGE_SCHEMAS = Object.fromEntries(
  SYNC_TYPES.map((type) => [type, z.array(SYNC_RECORD_SCHEMAS[type])]),
) as unknown as Record<SyncType, z.ZodMiniType<ParsedRecord[]>>;

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

/**
 * Fetches one page; a page taking longer than `timeoutMs` (including the ID token lookup and the body) is aborted
 * and fails, as does a cancelled one. A malformed record fails the whole page (ApiError from the client).
 */
export async function fetchSyncPage(
  client: ApiClient,
  request: EnforcementRequest,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ParsedRecord[]> {
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
    const path = `${ENFORCEMENT_TRANSACTIONS_PATH}?type=${request.type}`;
    return await Promise.race([
      client.post(path, request, PAGE_SCHEMAS[request.type], { signal: controller.signal }),
      stopped,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', cancel);
  }
}
