import type { UserPermissions } from '../permissions/permissions-object';
import { AccessDeniedError } from './access-denied-error';
import { canOpen, type Section } from './route-access';

/** The guard every protected route calls from `beforeLoad`, after the `_authenticated` layout supplied permissions. */
export function requireAccess(
  context: { permissions: UserPermissions; isProductionHost: boolean },
  section: Section,
): void {
  if (!canOpen(section, { permissions: context.permissions, isProductionHost: context.isProductionHost })) {
    throw new AccessDeniedError(section);
  }
}
