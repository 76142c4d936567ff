import { ApiError } from '../api/client';

/**
 * What a page that could not load has to say (docs/sections.md "Load states"): `denied` is the access-denied screen
 * (the server's 403, or a guard's refusal, which is one too), `notFound` says so with a way back, `retryable` is the
 * only kind that offers Retry (no answer at all, a timeout, too many requests, the server's own failure), `refused`
 * is any other answer of the server (a retry would get the same one), `unexpected` is a fault of the console.
 */
export type LoadFailureKind = 'denied' | 'notFound' | 'retryable' | 'refused' | 'unexpected';

/** Statuses a retry may fix; no status at all is a call that got no answer (network, sign-in token). */
const RETRYABLE_STATUSES = new Set([408, 429]);

export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status >= 500 || RETRYABLE_STATUSES.has(status);
}

export function loadFailureKind(error: unknown): LoadFailureKind {
  if (!(error instanceof ApiError)) return 'unexpected';
  if (error.status === 403) return 'denied';
  if (error.status === 404) return 'notFound';
  return isRetryableStatus(error.status) ? 'retryable' : 'refused';
}
