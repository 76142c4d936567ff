import type { Context } from 'hono';
import type { VersionConflict } from '../../src/contract/lists';
import { conflictFailure, failure, invalidFields } from './responses';

/**
 * What a section's handler decides, in the words of the API: the kit (section-kit.ts) turns it into the status and
 * envelope of docs/api.md in one place, `respond`, so no route writes a status code by hand.
 */
export type Outcome<T> =
  | { kind: 'ok'; data: T; headers?: Record<string, string> | undefined }
  /** 200 whose `data` is JSON text already written (by the database): sent as it is, not parsed to be written again. */
  | { kind: 'okJson'; json: string }
  /** 400 a form places at its fields (`data.fieldErrors`). */
  | { kind: 'invalidFields'; fieldErrors: Record<string, string> }
  /** 400 about the request as a whole (a date range, a page beyond the limit). */
  | { kind: 'badRequest'; message: string }
  /** 403: signed in, but not allowed this record or location. */
  | { kind: 'refused'; message: string }
  | { kind: 'notFound'; message: string }
  /** 409: the record changed since it was read, or the change is not possible now; `data` explains it. */
  | { kind: 'conflict'; message: string; data?: unknown };

export type Refusal = Exclude<Outcome<never>, { kind: 'ok' | 'okJson' }>;

export const ok = <T>(data: T, headers?: Record<string, string>): Outcome<T> => ({ kind: 'ok', data, headers });
/**
 * `json` must be the JSON text of a `T` (what `JSON.stringify` would write for it); the `T` is the route's `data`, so
 * the handler still answers its declared type, and the envelope around the text is the one `ok` gets.
 */
export const okJson = <T>(json: string): Outcome<T> => ({ kind: 'okJson', json });
export const fieldProblems = (fieldErrors: Record<string, string>): Refusal => ({ kind: 'invalidFields', fieldErrors });
export const badRequest = (message: string): Refusal => ({ kind: 'badRequest', message });
export const refused = (message: string): Refusal => ({ kind: 'refused', message });
export const notFound = (message: string): Refusal => ({ kind: 'notFound', message });
export const conflict = (message: string, data?: unknown): Refusal => ({ kind: 'conflict', message, data });

/** The one mapping from outcomes to statuses and envelopes. */
export function respond<T>(c: Context, outcome: Outcome<T>): Response {
  switch (outcome.kind) {
    case 'ok':
      return c.json({ success: true as const, data: outcome.data }, 200, outcome.headers);
    case 'okJson':
      // Byte for byte what c.json writes for { success: true, data } when `json` is JSON.stringify(data).
      return c.body(`{"success":true,"data":${outcome.json}}`, 200, { 'Content-Type': 'application/json' });
    case 'invalidFields':
      return c.json(invalidFields(outcome.fieldErrors), 400);
    case 'badRequest':
      return c.json(failure(outcome.message), 400);
    case 'refused':
      return c.json(failure(outcome.message), 403);
    case 'notFound':
      return c.json(failure(outcome.message), 404);
    case 'conflict':
      return c.json(
        outcome.data === undefined ? failure(outcome.message) : conflictFailure(outcome.message, outcome.data),
        409,
      );
  }
}

/** 409 for an edit made from an old version: who changed the record since, and when (the console's conflict notice). */
export function versionConflict(record: string, change: VersionConflict): Refusal {
  return conflict(`${record} was changed by ${changeAuthor(change)} after you opened it. Reload to see their version; nothing was saved.`, change);
}

/**
 * "Jane Doe at 2026-…" or "someone else": who changed a record since it was read, and when, for the version-conflict
 * sentences whose wording differs from `versionConflict`'s (a ticket, a location's rates).
 */
export function changeAuthor(change: VersionConflict): string {
  const who = change.changedBy ? (change.changedBy.name ?? change.changedBy.email) : 'someone else';
  return change.changedAt ? `${who} at ${change.changedAt}` : who;
}
