import type { UserPermissions } from '../../permissions/permissions-object';

/**
 * What the router needs to know about authentication: the current view of it, and a promise that settles once it is
 * known whether someone is signed in (from the stored session at once, or after a sign-in once the identity provider
 * and the permissions lookup have answered). Guards await `settled()` so that a reload on a protected page shows the
 * spinner instead of bouncing to /login.
 */
export type AuthView =
  | { status: 'resolving' }
  /**
   * `authEnabled`: the identity provider and the server confirmed this session during this visit. Entries that need
   * the server are offered only then (spec §6; docs/decisions/0009-authentication-enabled.md).
   */
  | { status: 'authenticated'; permissions: UserPermissions; authEnabled: boolean }
  | { status: 'signedOut'; loginError: string | null };

export type SettledAuthView = Exclude<AuthView, { status: 'resolving' }>;

export interface AuthGate {
  current(): AuthView;
  settled(): Promise<SettledAuthView>;
  /**
   * Settles once a session resumed from the stored one has been confirmed or refused by the identity provider and
   * the server, or could not be for want of a network (the stored session then stands in); with `settled()` for any
   * other. A guard about to deny waits for it: the stored session lacks the superuser flag
   * (docs/decisions/0006-firebase-off-the-critical-path.md).
   */
  confirmed(): Promise<SettledAuthView>;
}
