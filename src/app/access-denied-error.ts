import type { Section } from './route-access';

/** Thrown by a route's `beforeLoad` when the signed-in user may not open it; rendered as the access-denied screen. */
export class AccessDeniedError extends Error {
  constructor(readonly section: Section) {
    super(`Access denied: ${section}`);
    this.name = 'AccessDeniedError';
  }
}
