import { lazy, Suspense } from 'react';
import { AccessDeniedError } from './access-denied-error';
import { AccessDenied } from '../../ui/access-denied';
import type { LoadFailureProps } from '../../ui/load-failure';
import { Spinner } from '../../ui/spinner';

// The full error screen (load states, not-found, Retry) is what admin sections show; on /list and /login it would
// only cost JavaScript budget (150 KB gz, vite.config.ts) for a screen that is rarely seen, so the router's default
// loads it when an error happens.
const LazyLoadFailure = lazy(() => import('../../ui/load-failure').then((module) => ({ default: module.LoadFailure })));

/**
 * The router's default error screen (and the root route's): a guard's refusal shows the access-denied screen at
 * once; any other failure (a server's 403 too) shows LoadFailure (src/ui/load-failure.tsx), loaded when it happens.
 */
export function RouteLoadFailure({ error }: Pick<LoadFailureProps, 'error'>) {
  if (error instanceof AccessDeniedError) return <AccessDenied />;
  return (
    <Suspense fallback={<Spinner />}>
      <LazyLoadFailure error={error} />
    </Suspense>
  );
}
