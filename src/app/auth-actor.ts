import { createActor, waitFor } from 'xstate';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../api/client';
import { authMachine, isNetworkUnreachable, type AuthSnapshot } from '../machines/auth/auth.machine';
import { createAuthImplementations } from '../machines/auth/auth.actors';
import type { AuthGate, AuthView, SettledAuthView } from '../routes/-shared/auth-gate';
import { config } from './config';
import { currentIdToken, firebaseAuthLoaded, loadFirebaseAuth } from './firebase';
import { inspect } from './inspector';
import { readStoredSession } from './session-storage';
import { browserSessionStore } from './stored-session-store';
import { toast } from '../ui/toast/toast-store';

export function authViewOf(snapshot: AuthSnapshot): AuthView {
  if (snapshot.hasTag('authenticated') && snapshot.context.permissions) {
    // A session restored from the stored one while offline: nothing confirmed it in this visit.
    const authEnabled = !snapshot.hasTag('fromCache');
    return { status: 'authenticated', permissions: snapshot.context.permissions, authEnabled };
  }
  if (snapshot.hasTag('signedOut')) return { status: 'signedOut', loginError: snapshot.context.loginError };
  return { status: 'resolving' };
}

/**
 * The one authentication actor of the page and the API client bound to it. The client reads the session token
 * from the stored session (spec §7) and reports session errors back to the actor, which signs the user out.
 */
export function startAuth(redirectToLogin: () => void): { actor: ReturnType<typeof createAuthActor>; api: ApiClient; gate: AuthGate } {
  const options: ApiClientOptions = {
    apiBase: config.apiBase,
    getIdToken: currentIdToken,
    getSessionToken: () => readStoredSession()?.token ?? null,
    onSessionError: (code) => actor.send({ type: 'auth.sessionExpired', code }),
    onAccountDisabled: (message) => actor.send({ type: 'auth.accountDisabled', message }),
    onError: (error) => toast({ title: 'Request failed', description: error.message, variant: 'destructive' }),
  };
  const api = createApiClient(options);
  // The machine's own lookups answer an unreachable server with the stored session (offline), and retry it while
  // offline: no toast for those, every other failure as usual.
  const lookupClient = createApiClient({
    ...options,
    onError: (error) => {
      if (!isNetworkUnreachable(error)) options.onError?.(error);
    },
  });
  const actor = createAuthActor(lookupClient, redirectToLogin);
  const gate: AuthGate = {
    current: () => authViewOf(actor.getSnapshot()),
    settled: async () =>
      authViewOf(await waitFor(actor, (snapshot) => !snapshot.hasTag('resolving'))) as SettledAuthView,
    confirmed: async () => {
      // Firebase is what confirms a resumed session: whoever waits for that (a guard) needs it now, not at idle time.
      if (actor.getSnapshot().hasTag('confirming')) {
        loadFirebaseAuth().catch((error: unknown) => console.warn('Firebase Auth could not be loaded', error));
      }
      const snapshot = await waitFor(actor, (next) => !next.hasTag('resolving') && !next.hasTag('confirming'));
      return authViewOf(snapshot) as SettledAuthView;
    },
  };
  actor.start();
  return { actor, api, gate };
}

function createAuthActor(client: ApiClient, redirectToLogin: () => void) {
  const firebase = { loaded: firebaseAuthLoaded, load: loadFirebaseAuth };
  const session = browserSessionStore();
  const implementations = createAuthImplementations({
    firebase,
    client,
    redirectToLogin,
    session,
    permissionsRefreshMs: config.permissionsRefreshMs,
  });
  return createActor(authMachine.provide(implementations), { ...(inspect ? { inspect } : {}) });
}
