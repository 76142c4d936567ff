import { notFound } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { ApiError, type ApiClient, type RequestOptions } from '../../api/client';
import { pageLoadOptions } from '../../api/page-load';
import type { AuditEntry } from '../../contract/lists';

/**
 * A record page's loader: the record (and what it needs), or the route's not-found screen when the server answers
 * 404 — for a record that is not there, or, where its existence is itself private, not at one of your locations.
 */
export async function recordOrNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}

/**
 * A record's address checked by the contract's schema (canonical ids: "7", never "07" or "7.0"), in the loader, after
 * the guard, so that a user without access is told so whatever the address: anything else is no record at all.
 */
export function paramsOrNotFound<T>(schema: z.ZodMiniType<T>, params: unknown): T {
  const parsed = z.safeParse(schema, params);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

/**
 * An API call reading one record (or its History) by id: the shape of every section's `get…` and `get…History`. Ids
 * are numbers, or the UUID a device made (citations).
 */
type ReadById<T, Id> = (client: ApiClient, id: Id, options?: RequestOptions) => Promise<T>;

/**
 * A record page's loader body (docs/sections.md "Detail pages"): the record and its History in parallel, asked with
 * the page's options (cancelled with the navigation; a 403 or 404 said by the page, not a toast), and a 404 of either
 * the route's not-found screen. The id has been checked by the route (canonical, after the guard).
 */
export function loadRecordPage<T, Id extends number | string = number>(
  client: ApiClient,
  id: Id,
  abortController: AbortController,
  read: { record: ReadById<T, Id>; history: ReadById<AuditEntry[], Id> },
): Promise<{ record: T; history: AuditEntry[] }> {
  const options = pageLoadOptions(abortController);
  return recordOrNotFound(async () => {
    const [record, history] = await Promise.all([read.record(client, id, options), read.history(client, id, options)]);
    return { record, history };
  });
}
