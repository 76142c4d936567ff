import type { ApiClient } from '../../api/client';
import type { AuthGate } from './auth-gate';

export interface RouterContext {
  auth: AuthGate;
  api: ApiClient;
  /** True when the console is served from the production admin host (Database Copy is never offered there). */
  isProductionHost: boolean;
}
