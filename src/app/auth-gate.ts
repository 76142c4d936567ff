import type { UserPermissions } from '../permissions/permissions-object';

/**
 * What the router needs to know about authentication: the current view of it, and a promise that settles once the
 * identity provider and the permissions lookup have answered. Guards await `settled()` so that a reload on a
 * protected page shows the spinner instead of bouncing to /login.
 */
export type AuthView =
  | { status: 'resolving' }
  /**
   * `authEnabled`: the identity provider and the server confirmed this session during this visit. Entries that need
   * the server are offered only then (spec §6; docs/decisions.md).
   */
  | { status: 'authenticated'; permissions: UserPermissions; authEnabled: boolean }
  | { status: 'signedOut'; loginError: string | null };

export type SettledAuthView = Exclude<AuthView, { status: 'resolving' }>;

export interface AuthGate {
  current(): AuthView;
  settled(): Promise<SettledAuthView>;
}
