import type { UserPermissions } from '../../permissions/permissions-object';
import { AccessDeniedError } from './access-denied-error';
import type { AuthGate } from './auth-gate';
import { canOpen, type Section } from './route-access';

/**
 * The guard every protected route calls from `beforeLoad`, after the `_authenticated` layout supplied permissions.
 * Before denying, it waits for a session resumed from the stored one to be confirmed: the stored session keeps no
 * superuser flag, so a superuser reloading a superuser-only page would otherwise see "Access denied" until then.
 */
export function requireAccess(
  context: { permissions: UserPermissions; isProductionHost: boolean; auth: Pick<AuthGate, 'confirmed'> },
  section: Section,
): void | Promise<void> {
  const { isProductionHost } = context;
  if (canOpen(section, { permissions: context.permissions, isProductionHost })) return;
  return context.auth.confirmed().then((view) => {
    if (view.status !== 'authenticated' || !canOpen(section, { permissions: view.permissions, isProductionHost })) {
      throw new AccessDeniedError(section);
    }
  });
}
