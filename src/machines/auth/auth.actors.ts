import type { Auth, User } from 'firebase/auth';
import { fromCallback, fromPromise } from 'xstate';
import { loadPermissions, lookupPermissions } from '../../api/auth';
import { ApiError, NETWORK_ERROR_MESSAGE, type ApiClient } from '../../api/client';
import type { UserPermissions } from '../../permissions/permissions-object';
import type { AuthEvent, IdentityUser, PermissionsPollerEvent, RefreshedIdToken } from './auth.machine';

/**
 * Firebase Auth, loaded lazily so that no page waits for it (docs/decisions/0006-firebase-off-the-critical-path.md).
 * Only its interfaces' own methods are used here, so this module imports nothing of Firebase but types.
 */
export interface FirebaseAuthLoader {
  /** Settles once Firebase Auth has loaded, without loading it: the identity listener waits for the background load. */
  loaded(): Promise<Auth>;
  /** Loads Firebase Auth now, unless it has loaded already. */
  load(): Promise<Auth>;
}

/**
 * The stored session (lpa) and what leaves with it on sign-out. The app keeps them (src/app/stored-session-store.ts);
 * the machine only decides when to read, restore, save or clear.
 */
export interface StoredSessionStore {
  /** The stored session the page may start from, whoever's it is, while still valid at `now`; else null. */
  resumable(now: number): UserPermissions | null;
  /** The stored session of `email` while still valid at `now` (it stands in for the server offline); else null. */
  restore(email: string, now: number): UserPermissions | null;
  save(userData: UserPermissions): void;
  /** Local storage, lpa with it, and the service worker's data caches (spec §4). */
  clear(): void;
}

export interface AuthImplementationDeps {
  firebase: FirebaseAuthLoader;
  client: ApiClient;
  /** Sends the browser to /login (the router's navigate). */
  redirectToLogin: () => void;
  session: StoredSessionStore;
  /** The element that carries the login style; defaults to `document.body`. */
  body?: { classList: Pick<DOMTokenList, 'remove'> };
  /** Whether the browser is online; defaults to `navigator.onLine` (true where there is no navigator). */
  isOnline?: () => boolean;
  /** Where the browser's `online` event is heard; defaults to `window`. */
  onlineEvents?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** How often an open console checks its permissions with the server (ms); defaults to a minute. */
  permissionsRefreshMs?: number;
}

/** An open console picks up a changed role within this long, or at its next navigation (issue 13). */
export const PERMISSIONS_REFRESH_MS = 60_000;

const browserIsOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** The ID token could not be fetched or refreshed for want of a network (Firebase's own error code). */
function isIdentityNetworkFailure(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return typeof cause === 'object' && cause !== null && (cause as { code?: unknown }).code === 'auth/network-request-failed';
}

async function identityOf(user: User): Promise<IdentityUser | null> {
  // Staff accounts are looked up by e-mail; an identity without one cannot hold a session.
  if (!user.email) return null;
  try {
    const { expirationTime } = await user.getIdTokenResult();
    return { email: user.email, idTokenExpiresAt: Date.parse(expirationTime) };
  } catch {
    // Expiry unknown (e.g. offline): report it as due now, so the machine refreshes and retries.
    return { email: user.email, idTokenExpiresAt: Date.now() };
  }
}

/** The actors of `authMachine` that read the stored session. */
export function createStoredSessionActors({ session }: Pick<AuthImplementationDeps, 'session'>) {
  return {
    /** Whatever local storage holds under lpa, read synchronously: the session, whoever's, if still valid. */
    readStoredSession: fromPromise<UserPermissions | null>(async () => session.resumable(Date.now())),
    restoreSession: fromPromise<UserPermissions, { email: string }>(async ({ input }) => {
      const restored = session.restore(input.email, Date.now());
      if (!restored) throw new Error(`No valid stored session of ${input.email} to restore`);
      return restored;
    }),
  };
}

/** The Firebase-, API- and browser-backed actors of `authMachine`. */
export function createAuthActors({
  firebase,
  client,
  isOnline = browserIsOnline,
  onlineEvents,
  permissionsRefreshMs = PERMISSIONS_REFRESH_MS,
}: Pick<AuthImplementationDeps, 'firebase' | 'client' | 'isOnline' | 'onlineEvents' | 'permissionsRefreshMs'>) {
  return {
    identityListener: fromCallback(({ sendBack }) => {
      // Reading the expiry is asynchronous; only the latest change may be reported, so older reads are dropped.
      let latestChange = 0;
      let stopped = false;
      let unsubscribe: (() => void) | undefined;
      // Nothing is reported before Firebase has loaded (in the background, or for a sign-in): the machine decides
      // from the stored session meanwhile.
      void firebase.loaded().then((auth) => {
        if (stopped) return;
        unsubscribe = auth.onIdTokenChanged((user) => {
          const change = ++latestChange;
          void (user ? identityOf(user) : Promise.resolve(null)).then((identity) => {
            if (change === latestChange) sendBack({ type: 'auth.identityChanged', user: identity } satisfies AuthEvent);
          });
        });
      });
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    }),
    /**
     * The permissions lookup. Any failure for want of a network is reported as the API client's network error, so
     * the machine can fall back on the stored session: the browser offline (then nothing is sent), the API
     * unreachable, or the ID token not refreshable.
     */
    lookupPermissions: fromPromise<UserPermissions, { email: string }>(async ({ input }) => {
      if (!isOnline()) throw new ApiError(NETWORK_ERROR_MESSAGE);
      try {
        return await lookupPermissions(client, input.email);
      } catch (error) {
        if (!isOnline() || isIdentityNetworkFailure(error)) throw new ApiError(NETWORK_ERROR_MESSAGE, { cause: error });
        throw error;
      }
    }),
    onlineListener: fromCallback(({ sendBack }) => {
      const target = onlineEvents ?? window;
      const online = () => sendBack({ type: 'auth.online' } satisfies AuthEvent);
      target.addEventListener('online', online);
      return () => target.removeEventListener('online', online);
    }),
    permissionsPoller: fromCallback<PermissionsPollerEvent>(({ sendBack, receive }) => {
      let checking = false;
      let stopped = false;
      const check = () => {
        // One check at a time; offline there is nothing to ask (the next check after coming back will).
        if (checking || stopped || !isOnline()) return;
        checking = true;
        loadPermissions(client)
          .then((userData) => {
            if (!stopped) sendBack({ type: 'auth.permissionsLoaded', userData } satisfies AuthEvent);
          })
          // Session errors and a disabled account reach the machine through the client; anything else waits for
          // the next check.
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      };
      const timer = setInterval(check, permissionsRefreshMs);
      receive((event) => {
        if (event.type === 'refresh') check();
      });
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    }),
    // A sign-out may come before the background load (a logout from a session resumed from lpa): Firebase may still
    // hold the user, so it is loaded to sign out.
    signOut: fromPromise<void>(async () => (await firebase.load()).signOut()),
    refreshIdToken: fromPromise<RefreshedIdToken>(async () => {
      const user = (await firebase.load()).currentUser;
      if (!user) throw new Error('No signed-in user to refresh the ID token of');
      const { expirationTime } = await user.getIdTokenResult(true);
      return { idTokenExpiresAt: Date.parse(expirationTime) };
    }),
  };
}

/** The browser side effects of `authMachine`: the stored session, the login style, navigation. */
export function createAuthActions({
  redirectToLogin,
  session,
  body = document.body,
}: Pick<AuthImplementationDeps, 'redirectToLogin' | 'session' | 'body'>) {
  return {
    removeLoginStyle: () => body.classList.remove('login'),
    storeSession: (_: unknown, params: { userData: UserPermissions }) => session.save(params.userData),
    clearSession: () => session.clear(),
    redirectToLogin: () => redirectToLogin(),
  };
}

/** Everything `authMachine.provide()` needs in the browser. */
export function createAuthImplementations(deps: AuthImplementationDeps) {
  return {
    actors: { ...createStoredSessionActors(deps), ...createAuthActors(deps) },
    actions: createAuthActions(deps),
  };
}
