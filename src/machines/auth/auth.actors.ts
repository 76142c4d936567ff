import { getIdTokenResult, onIdTokenChanged, signOut, type Auth, type User } from 'firebase/auth';
import { fromCallback, fromPromise } from 'xstate';
import { lookupPermissions } from '../../api/auth';
import type { ApiClient } from '../../api/client';
import { clearStoredSession, writeStoredSession, type SessionStorageArea } from '../../app/session-storage';
import type { UserPermissions } from '../../permissions/permissions-object';
import type { AuthEvent, IdentityUser, RefreshedIdToken } from './auth.machine';

export interface AuthImplementationDeps {
  auth: Auth;
  client: ApiClient;
  /** Sends the browser to /login (the router's navigate). */
  redirectToLogin: () => void;
  /** Defaults to `window.localStorage`. */
  storage?: SessionStorageArea;
  /** The element that carries the login style; defaults to `document.body`. */
  body?: { classList: Pick<DOMTokenList, 'remove'> };
}

async function identityOf(user: User): Promise<IdentityUser | null> {
  // Staff accounts are looked up by e-mail; an identity without one cannot hold a session.
  if (!user.email) return null;
  try {
    const { expirationTime } = await getIdTokenResult(user);
    return { email: user.email, idTokenExpiresAt: Date.parse(expirationTime) };
  } catch {
    // Expiry unknown (e.g. offline): report it as due now, so the machine refreshes and retries.
    return { email: user.email, idTokenExpiresAt: Date.now() };
  }
}

/** The Firebase-backed actors of `authMachine`. */
export function createAuthActors({ auth, client }: Pick<AuthImplementationDeps, 'auth' | 'client'>) {
  return {
    identityListener: fromCallback(({ sendBack }) => {
      // Reading the expiry is asynchronous; only the latest change may be reported, so older reads are dropped.
      let latestChange = 0;
      return onIdTokenChanged(auth, (user) => {
        const change = ++latestChange;
        void (user ? identityOf(user) : Promise.resolve(null)).then((identity) => {
          if (change === latestChange) sendBack({ type: 'auth.identityChanged', user: identity } satisfies AuthEvent);
        });
      });
    }),
    lookupPermissions: fromPromise<UserPermissions, { email: string }>(({ input }) =>
      lookupPermissions(client, input.email),
    ),
    signOut: fromPromise<void>(() => signOut(auth)),
    refreshIdToken: fromPromise<RefreshedIdToken>(async () => {
      const user = auth.currentUser;
      if (!user) throw new Error('No signed-in user to refresh the ID token of');
      const { expirationTime } = await getIdTokenResult(user, true);
      return { idTokenExpiresAt: Date.parse(expirationTime) };
    }),
  };
}

/** The browser side effects of `authMachine`: the stored session, the login style, navigation. */
export function createAuthActions({
  redirectToLogin,
  storage = window.localStorage,
  body = document.body,
}: Pick<AuthImplementationDeps, 'redirectToLogin' | 'storage' | 'body'>) {
  return {
    removeLoginStyle: () => body.classList.remove('login'),
    storeSession: (_: unknown, params: { userData: UserPermissions }) => writeStoredSession(storage, params.userData),
    clearSession: () => clearStoredSession(storage),
    redirectToLogin: () => redirectToLogin(),
  };
}

/** Everything `authMachine.provide()` needs in the browser. */
export function createAuthImplementations(deps: AuthImplementationDeps) {
  return { actors: createAuthActors(deps), actions: createAuthActions(deps) };
}
