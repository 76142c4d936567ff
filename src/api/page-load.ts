import type { RequestOptions } from './client';

/**
 * The statuses a route loader's failure is told by the page itself (src/ui/load-failure.tsx): a refusal is the
 * access-denied screen and an absence the not-found one, so a red "Request failed" toast would only repeat them.
 */
export const SAID_BY_THE_PAGE = [403, 404] as const;

/** The options of a route loader's API calls: cancelled with the navigation, quiet where the page speaks. */
export function pageLoadOptions(abortController: AbortController): RequestOptions {
  return { signal: abortController.signal, quietStatuses: SAID_BY_THE_PAGE };
}
