import * as z from 'zod/mini';
import { fieldErrorsSchema, versionConflictSchema, type VersionConflict } from '../contract/lists';
import { ApiError } from './client';

/**
 * What a failed save carries besides its message (docs/sections.md "Forms"), read with the contract's schemas: a
 * body that does not match is treated as carrying nothing, so the screen falls back to the message.
 */

/** The 409 of a stale version: who changed the record, when, and its version now. */
export function versionConflictOf(error: unknown): VersionConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = z.safeParse(versionConflictSchema, error.data);
  return parsed.success ? parsed.data : null;
}

/** The 400 a form places at its fields: field name → message. */
export function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const parsed = z.safeParse(fieldErrorsSchema, error.data);
  return parsed.success && Object.keys(parsed.data.fieldErrors).length > 0 ? parsed.data.fieldErrors : null;
}

/** The message of any failure, for showing in place. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The server did not answer.';
}
