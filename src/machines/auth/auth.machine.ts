import { assertEvent, assign, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';
import type { SessionErrorCode } from '../../contract/envelope';
import type { UserPermissions } from '../../permissions/permissions-object';

/** The ID token is refreshed this long before it expires (spec §9). */
export const ID_TOKEN_REFRESH_LEAD_MS = 5 * 60_000;
/** A failed refresh is tried again after this long. */
export const ID_TOKEN_REFRESH_RETRY_MS = 30_000;
/** The longest delay timers can hold (2^31 − 1 ms); longer ones would fire at once. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;
/** Shown on the login screen when the permissions lookup fails without a message of its own. */
export const LOOKUP_FAILED_MESSAGE = 'Could not load your permissions. Please try again.';
/** A session restored from the local cache tries the permissions lookup again this often (and whenever the browser
 * reports it is back online). */
export const OFFLINE_LOOKUP_RETRY_MS = 60_000;

/**
 * The permissions lookup could not reach the server: the API client's network failure (the browser being offline is
 * reported as one too, see auth.actors.ts). Only then may a cached session stand in for the server's answer.
 */
export function isNetworkUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.message === NETWORK_ERROR_MESSAGE && error.status === undefined;
}

/** The signed-in identity as the identity provider reports it. */
export interface IdentityUser {
  email: string;
  /** When the current ID token expires, in epoch milliseconds. */
  idTokenExpiresAt: number;
}

export interface RefreshedIdToken {
  idTokenExpiresAt: number;
}

export type AuthEvent =
  /** The identity provider's state changed (sign-in, sign-out, token refresh); sent by `identityListener`. */
  | { type: 'auth.identityChanged'; user: IdentityUser | null }
  | { type: 'auth.logout' }
  /** The browser reports that it is back online; sent by `onlineListener` while the session is restored from cache. */
  | { type: 'auth.online' }
  /** The API client met TokenExpired, NoTokenProvided or InvalidToken (spec §8). */
  | { type: 'auth.sessionExpired'; code: SessionErrorCode }
  /**
   * The server refused a call because an administrator disabled this staff account (error AccountDisabled): signed
   * out, with the server's sentence on the login screen.
   */
  | { type: 'auth.accountDisabled'; message: string }
  /** Check the permissions with the server now (a navigation); the poller also checks every interval by itself. */
  | { type: 'auth.refreshPermissions' }
  /** The server's current permissions of this session, sent by `permissionsPoller`. */
  | { type: 'auth.permissionsLoaded'; userData: UserPermissions };

/** What the permissions poller is told: check now. */
export type PermissionsPollerEvent = { type: 'refresh' };

export interface AuthContext {
  email: string | null;
  idTokenExpiresAt: number | null;
  /** The userData of the permissions lookup (spec §4). */
  permissions: UserPermissions | null;
  /** Why the last sign-in was turned away, for the login screen. */
  loginError: string | null;
}

/**
 * `fromCache`, with `authenticated`: the session was restored from the stored session (at the start of the visit, or
 * because the server could not be reached); nothing confirmed it in this visit, so authentication is not "enabled"
 * (docs/decisions/0009-authentication-enabled.md). `confirming`, with `fromCache`: Firebase and the server are still to
 * answer for it.
 */
export type AuthTag = 'resolving' | 'authenticated' | 'fromCache' | 'confirming' | 'signedOut';

function notProvided(name: string): never {
  throw new Error(`authMachine: '${name}' has no implementation; supply it with authMachine.provide()`);
}

const initialContext: AuthContext = { email: null, idTokenExpiresAt: null, permissions: null, loginError: null };

/**
 * Authentication (spec §4, §9). Pure: Firebase, storage, the DOM and navigation come in through `.provide`
 * (see auth.actors.ts). The identity listener lives at the root, so identity changes are heard in every state.
 */
/**
 * While a user's session is restored or held from the stored one: the same user's token refresh only updates the
 * expiry, another user is looked up afresh, nobody / logout / a session error sign out.
 */
const keptSessionEvents = {
  'auth.identityChanged': [
    { guard: 'isSameUser', actions: 'recordIdTokenExpiry' },
    { guard: 'hasUser', target: 'lookingUp', actions: ['recordIdentity', 'removeLoginStyle'] },
    { target: 'signingOut' },
  ],
  'auth.logout': 'signingOut',
  'auth.sessionExpired': 'signingOut',
  'auth.accountDisabled': { target: 'signingOut', actions: 'recordAccountDisabled' },
} as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    tags: {} as AuthTag,
  },
  actors: {
    /** The permissions of the stored session, whoever's, if it is still valid; null otherwise. */
    readStoredSession: fromPromise<UserPermissions | null>(async () => notProvided('readStoredSession')),
    identityListener: fromCallback(() => notProvided('identityListener')),
    lookupPermissions: fromPromise<UserPermissions, { email: string }>(async () => notProvided('lookupPermissions')),
    /** The permissions of the stored session if it is this user's and still valid; rejects otherwise. */
    restoreSession: fromPromise<UserPermissions, { email: string }>(async () => notProvided('restoreSession')),
    /** Sends back `auth.online` whenever the browser comes back online. */
    onlineListener: fromCallback(() => notProvided('onlineListener')),
    signOut: fromPromise<void>(async () => notProvided('signOut')),
    refreshIdToken: fromPromise<RefreshedIdToken>(async () => notProvided('refreshIdToken')),
    /**
     * While authenticated: asks the server for this session's permissions every interval and whenever told
     * (`refresh`), sending back `auth.permissionsLoaded`. A role changed by an administrator reaches the open console
     * this way, without signing in again (issue 13).
     */
    permissionsPoller: fromCallback<PermissionsPollerEvent>(() => notProvided('permissionsPoller')),
  },
  actions: {
    recordIdentity: assign(({ event }) => {
      assertEvent(event, 'auth.identityChanged');
      if (!event.user) return {};
      // A different user never inherits the previous user's permissions.
      return { email: event.user.email, idTokenExpiresAt: event.user.idTokenExpiresAt, permissions: null, loginError: null };
    }),
    recordIdTokenExpiry: assign(({ event }) => {
      assertEvent(event, 'auth.identityChanged');
      return event.user ? { idTokenExpiresAt: event.user.idTokenExpiresAt } : {};
    }),
    recordRefreshedIdToken: assign((_, refreshed: RefreshedIdToken) => ({
      idTokenExpiresAt: refreshed.idTokenExpiresAt,
    })),
    recordPermissions: assign((_, params: { userData: UserPermissions }) => ({ permissions: params.userData })),
    recordStoredSession: assign((_, params: { session: UserPermissions | null }) =>
      params.session ? { email: params.session.email, permissions: params.session } : {},
    ),
    recordLoginError: assign((_, params: { error: unknown }) => ({
      loginError: (params.error instanceof Error && params.error.message) || LOOKUP_FAILED_MESSAGE,
    })),
    clearLoginError: assign({ loginError: null }),
    recordAccountDisabled: assign(({ event }) => {
      assertEvent(event, 'auth.accountDisabled');
      return { loginError: event.message };
    }),
    forgetUser: assign({ email: null, idTokenExpiresAt: null, permissions: null }),
    // Side effects, implemented by the app (auth.actors.ts).
    removeLoginStyle: () => notProvided('removeLoginStyle'),
    storeSession: (_, _params: { userData: UserPermissions }) => notProvided('storeSession'),
    clearSession: () => notProvided('clearSession'),
    redirectToLogin: () => notProvided('redirectToLogin'),
  },
  guards: {
    hasUser: ({ event }) => event.type === 'auth.identityChanged' && event.user !== null,
    // Case aside: the stored session's e-mail is the server's (lower case), Firebase's is as the account has it.
    isSameUser: ({ context, event }) =>
      event.type === 'auth.identityChanged' &&
      event.user !== null &&
      event.user.email.toLowerCase() === context.email?.toLowerCase(),
    hasStoredSession: (_, params: { session: UserPermissions | null }) => params.session !== null,
    // Only a real change is recorded: the same permissions again must not re-run every guard and loader.
    permissionsChanged: ({ context, event }) =>
      event.type === 'auth.permissionsLoaded' &&
      event.userData.email === context.permissions?.email &&
      JSON.stringify(event.userData) !== JSON.stringify(context.permissions),
    isNetworkUnreachable: (_, params: { error: unknown }) => isNetworkUnreachable(params.error),
  },
  delays: {
    idTokenRefresh: ({ context }) =>
      Math.min(MAX_TIMER_DELAY_MS, Math.max(0, (context.idTokenExpiresAt ?? 0) - Date.now() - ID_TOKEN_REFRESH_LEAD_MS)),
    idTokenRefreshRetry: ID_TOKEN_REFRESH_RETRY_MS,
    offlineLookupRetry: OFFLINE_LOOKUP_RETRY_MS,
  },
}).createMachine({
  id: 'auth',
  context: initialContext,
  invoke: { id: 'identityListener', src: 'identityListener' },
  initial: 'readingStoredSession',
  states: {
    /**
     * The stored session (lpa) decides the start, without waiting for Firebase
     * (docs/decisions/0006-firebase-off-the-critical-path.md): a valid one signs its user in at once, provisionally,
     * and Firebase confirms it once loaded; without one the visitor is signed out at once, with nothing to clear.
     * Reading it is synchronous, so the spinner (spec §2) hardly shows. No identity report can come meanwhile:
     * Firebase loads after the first page is shown.
     */
    readingStoredSession: {
      tags: 'resolving',
      invoke: {
        src: 'readStoredSession',
        onDone: [
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticatedFromCache.awaitingIdentity',
            actions: [{ type: 'recordStoredSession', params: ({ event }) => ({ session: event.output }) }, 'removeLoginStyle'],
          },
          { target: 'signedOut' },
        ],
        // Unreadable storage holds no session to start from.
        onError: 'signedOut',
      },
    },
    lookingUp: {
      tags: 'resolving',
      invoke: {
        src: 'lookupPermissions',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: {
          target: 'authenticated',
          actions: [
            { type: 'recordPermissions', params: ({ event }) => ({ userData: event.output }) },
            { type: 'storeSession', params: ({ event }) => ({ userData: event.output }) },
          ],
        },
        onError: [
          // Offline: the stored session may stand in, if it is this user's; the message stays in case it is not.
          {
            guard: { type: 'isNetworkUnreachable', params: ({ event }) => ({ error: event.error }) },
            target: 'restoringSession',
            actions: { type: 'recordLoginError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'signingOut',
            actions: { type: 'recordLoginError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
      on: {
        'auth.identityChanged': [
          { guard: 'isSameUser', actions: 'recordIdTokenExpiry' },
          { guard: 'hasUser', target: 'lookingUp', reenter: true, actions: ['recordIdentity', 'removeLoginStyle'] },
          { target: 'signingOut' },
        ],
        'auth.logout': 'signingOut',
        'auth.sessionExpired': 'signingOut',
        'auth.accountDisabled': { target: 'signingOut', actions: 'recordAccountDisabled' },
      },
    },
    /**
     * The lookup could not reach the server: the stored session (lpa) restores the user if it is theirs (the e-mail
     * in its session token) and has not expired. Otherwise the user is signed out with the network message.
     */
    restoringSession: {
      tags: 'resolving',
      invoke: {
        src: 'restoreSession',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: {
          target: 'authenticatedFromCache',
          actions: [{ type: 'recordPermissions', params: ({ event }) => ({ userData: event.output }) }, 'clearLoginError'],
        },
        onError: 'signingOut',
      },
      on: keptSessionEvents,
    },
    /**
     * Signed in from the stored session, not yet confirmed in this visit: at the start of every visit with a valid
     * one, and while the server cannot be reached (an officer offline). Firebase reporting the same user runs the
     * lookup, whose answer makes the session authenticated as usual (the stored session renewed); a failure to reach
     * the server keeps the stored session and tries again when the browser comes back online, and every minute; any
     * other failure signs out as a failed lookup does. Firebase reporting another user looks that user up afresh;
     * reporting nobody signs out. The ID token is not refreshed meanwhile.
     */
    authenticatedFromCache: {
      tags: ['authenticated', 'fromCache'],
      initial: 'awaitingNetwork',
      on: keptSessionEvents,
      states: {
        /** Resumed from the stored session at the start; Firebase (loading in the background) has not reported yet. */
        awaitingIdentity: {
          tags: 'confirming',
          on: {
            // Anyone else, or nobody, is handled as in every state of the session (above).
            'auth.identityChanged': { guard: 'isSameUser', target: 'confirming', actions: 'recordIdTokenExpiry' },
          },
        },
        awaitingNetwork: {
          invoke: { src: 'onlineListener' },
          on: { 'auth.online': 'confirming' },
          after: { offlineLookupRetry: 'confirming' },
        },
        /** The permissions lookup, in the background: the page stays as it is meanwhile. */
        confirming: {
          tags: 'confirming',
          invoke: {
            src: 'lookupPermissions',
            input: ({ context }) => ({ email: context.email ?? '' }),
            onDone: {
              target: '#auth.authenticated',
              actions: [
                { type: 'recordPermissions', params: ({ event }) => ({ userData: event.output }) },
                { type: 'storeSession', params: ({ event }) => ({ userData: event.output }) },
              ],
            },
            onError: [
              {
                guard: { type: 'isNetworkUnreachable', params: ({ event }) => ({ error: event.error }) },
                target: 'awaitingNetwork',
              },
              {
                target: '#auth.signingOut',
                actions: { type: 'recordLoginError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
      },
    },
    authenticated: {
      tags: 'authenticated',
      initial: 'awaitingRefresh',
      // Runs beside the ID-token refresh for as long as the session is authenticated (not a substate, so the states
      // above stay as they are; it is seen in the inspector as the child `permissionsPoller`).
      invoke: { id: 'permissionsPoller', src: 'permissionsPoller' },
      on: {
        'auth.refreshPermissions': { actions: sendTo('permissionsPoller', { type: 'refresh' } satisfies PermissionsPollerEvent) },
        'auth.permissionsLoaded': {
          guard: 'permissionsChanged',
          actions: [
            { type: 'recordPermissions', params: ({ event }) => ({ userData: event.userData }) },
            { type: 'storeSession', params: ({ event }) => ({ userData: event.userData }) },
          ],
        },
        'auth.accountDisabled': { target: 'signingOut', actions: 'recordAccountDisabled' },
        'auth.identityChanged': [
          // Re-entering the wait reschedules the refresh for the new expiry.
          { guard: 'isSameUser', target: '.awaitingRefresh', actions: 'recordIdTokenExpiry' },
          { guard: 'hasUser', target: 'lookingUp', actions: ['recordIdentity', 'removeLoginStyle'] },
          { target: 'signingOut' },
        ],
        'auth.logout': 'signingOut',
        'auth.sessionExpired': 'signingOut',
      },
      states: {
        awaitingRefresh: {
          after: { idTokenRefresh: 'refreshingIdToken' },
        },
        refreshingIdToken: {
          invoke: {
            src: 'refreshIdToken',
            onDone: {
              target: 'awaitingRefresh',
              actions: { type: 'recordRefreshedIdToken', params: ({ event }) => event.output },
            },
            onError: 'awaitingRefreshRetry',
          },
        },
        awaitingRefreshRetry: {
          after: { idTokenRefreshRetry: 'refreshingIdToken' },
        },
      },
    },
    /** Permissions cleared, stored session and local storage cleared, identity provider signed out (spec §4). */
    signingOut: {
      tags: 'resolving',
      entry: ['forgetUser', 'clearSession'],
      invoke: { src: 'signOut', onDone: 'signedOut', onError: 'signedOut' },
    },
    /** The browser goes to /login only once the provider has signed out, so a new sign-in cannot race it. */
    signedOut: {
      tags: 'signedOut',
      entry: 'redirectToLogin',
      on: {
        'auth.identityChanged': {
          guard: 'hasUser',
          target: 'lookingUp',
          actions: ['recordIdentity', 'removeLoginStyle'],
        },
      },
    },
  },
});

export type AuthActorRef = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

export const selectPermissions = (snapshot: AuthSnapshot): UserPermissions | null => snapshot.context.permissions;
export const selectEmail = (snapshot: AuthSnapshot): string | null => snapshot.context.email;
export const selectLoginError = (snapshot: AuthSnapshot): string | null => snapshot.context.loginError;
