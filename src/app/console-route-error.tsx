import type { ErrorComponentProps } from '@tanstack/react-router';
import { AccessDenied } from '../ui/access-denied';
import { RouteError } from '../ui/route-error';
import { AccessDeniedError } from './access-denied-error';

/** What a route shows when it cannot render: the access-denied screen for a guard's refusal, else the route error. */
export function ConsoleRouteError({ error }: ErrorComponentProps) {
  if (error instanceof AccessDeniedError) return <AccessDenied />;
  return <RouteError error={error} />;
}
