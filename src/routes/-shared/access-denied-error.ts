import { ApiError } from '../../api/client';
import type { Section } from './route-access';

/**
 * Thrown by a route's `beforeLoad` when the signed-in user may not open it. It is the refusal the server would answer
 * (a 403), said before asking, so the route's error screen shows both alike: the access-denied screen
 * (src/ui/load-failure.tsx).
 */
export class AccessDeniedError extends ApiError {
  constructor(readonly section: Section) {
    super(`Access denied: ${section}`, { status: 403 });
  }
}
