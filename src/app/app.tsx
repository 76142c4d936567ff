import { RouterProvider } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import type { AuthActorRef } from '../machines/auth/auth.machine';
import { Spinner } from '../ui/spinner';
import { ConsoleProviders } from './console-providers';
import { EnforcementEngineProvider } from '../routes/-shared/enforcement-context';
import type { EnforcementEngineHolder } from '../routes/-shared/enforcement-engine';
import { authViewOf } from './auth-actor';
import { firebaseLoaded, loadFirebase } from './firebase';
import { createFirebaseSessionServices } from './firebase-session';
import type { createAppRouter } from './router';
import { SessionProvider } from '../routes/-shared/session-services';

/**
 * The root (spec §2): one tree holding the app shell and the toast area. A spinner until the stored session has been
 * read (spec §2; at once, it is synchronous), then the router: Firebase is not waited for
 * (docs/decisions/0006-firebase-off-the-critical-path.md). Whenever a user becomes authenticated or their permissions
 * change, the guards run again.
 */
export function App({
  actor,
  router,
  enforcement,
}: {
  actor: AuthActorRef;
  router: ReturnType<typeof createAppRouter>;
  enforcement: EnforcementEngineHolder;
}) {
  const readingStoredSession = useSelector(actor, (snapshot) => snapshot.matches('readingStoredSession'));
  const view = useSelector(actor, authViewOf, (a, b) => a.status === b.status && sameDetail(a, b));
  const services = useMemo(
    () =>
      createFirebaseSessionServices({ load: loadFirebase, loaded: firebaseLoaded }, () =>
        actor.send({ type: 'auth.logout' }),
      ),
    [actor],
  );

  useEffect(() => {
    if (view.status === 'authenticated') void router.invalidate();
  }, [view, router]);

  return (
    <ConsoleProviders>
      {readingStoredSession ? (
        <Spinner />
      ) : (
        <SessionProvider services={services} view={view}>
          <EnforcementEngineProvider holder={enforcement}>
            <RouterProvider router={router} />
          </EnforcementEngineProvider>
        </SessionProvider>
      )}
    </ConsoleProviders>
  );
}

function sameDetail(a: ReturnType<typeof authViewOf>, b: ReturnType<typeof authViewOf>): boolean {
  if (a.status === 'authenticated' && b.status === 'authenticated') {
    return a.permissions === b.permissions && a.authEnabled === b.authEnabled;
  }
  if (a.status === 'signedOut' && b.status === 'signedOut') return a.loginError === b.loginError;
  return true;
}
