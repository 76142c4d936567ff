import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, setup, type SnapshotFrom } from 'xstate';
import { createTestModel, getStateNodes, type Step } from 'xstate/graph';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';
import { resumableStoredSession } from '../../app/resumable-session';
import { readStoredSession, restoreStoredSession } from '../../app/session-storage';
import {
  createAuthHarness,
  ID_TOKEN_LIFETIME_MS,
  transitionKey,
  useFakeDate,
  writeHarnessSession,
  type AuthHarness,
} from '../../../test/fixtures/auth-harness';
import {
  authMachine,
  ID_TOKEN_REFRESH_RETRY_MS,
  OFFLINE_LOOKUP_RETRY_MS,
} from './auth.machine';

/**
 * Model-based test of `authMachine`. The model below restates spec §4 and §9, and the offline use of
 * docs/decisions/0017-offline-session-from-the-stored-session.md, as a statechart with no actors or timers (the graph
 * tools cannot traverse those); each model event is a stimulus the test applies to the real machine (an identity
 * report, an answer of a fake actor, the browser coming online, time passing), and each model state is checked against
 * the real machine's state, context and side effects. Paths are generated to take every transition of the model, and
 * the run must take every transition of the real machine.
 *
 * The model also tracks whose valid session local storage holds. The start reads it: alice's (as after a reload of
 * the page she signed in on) signs her in from it at once, to be confirmed once Firebase reports; none valid (an
 * expired one) or storage that cannot be read signs out at once, quietly: nothing to clear, nothing to sign out. A
 * lookup that cannot reach the server restores the user from it if it is theirs, and turns anyone else away.
 */
const USERS = { a: 'alice@example.com', b: 'bob@example.com' } as const;
type UserKey = keyof typeof USERS;
const NO_STAFF_ACCOUNT = 'No staff account for this e-mail';
const ACCOUNT_DISABLED_MESSAGE = 'This staff account is disabled.';
const LOGIN_ERRORS = { noStaff: NO_STAFF_ACCOUNT, network: NETWORK_ERROR_MESSAGE, disabled: ACCOUNT_DISABLED_MESSAGE } as const;
type LoginErrorKey = keyof typeof LOGIN_ERRORS;

type ModelEvent =
  /** The start reads the stored session: alice's, valid, or an expired one (none valid). */
  | { type: 'STORED_SESSION'; user: UserKey | null }
  | { type: 'STORAGE_UNREADABLE' }
  | { type: 'IDENTITY'; user: UserKey | null }
  | { type: 'LOOKUP_OK' }
  | { type: 'LOOKUP_FAILED' }
  /** The lookup could not reach the server (offline). */
  | { type: 'LOOKUP_UNREACHABLE' }
  /** The stored session is read: restored if it is the user's. */
  | { type: 'RESTORE' }
  /** The browser's `online` event. */
  | { type: 'ONLINE' }
  | { type: 'OFFLINE_RETRY_DUE' }
  | { type: 'LOGOUT' }
  | { type: 'SESSION_EXPIRED' }
  | { type: 'REFRESH_DUE' }
  | { type: 'REFRESH_OK' }
  | { type: 'REFRESH_FAILED' }
  | { type: 'RETRY_DUE' }
  | { type: 'SIGN_OUT_DONE' }
  | { type: 'SIGN_OUT_FAILED' }
  /** A call was refused because an administrator disabled the account (issue 13). */
  | { type: 'ACCOUNT_DISABLED' }
  /** A navigation asks the permissions poller to check now. */
  | { type: 'REFRESH_PERMISSIONS' }
  /** The poller reports the session's permissions changed on the server (a role edited). */
  | { type: 'PERMISSIONS_CHANGED' };

interface ModelContext {
  user: UserKey | null;
  loginError: LoginErrorKey | null;
  /** Whose valid session local storage (lpa) holds. */
  stored: UserKey | null;
  /** Signed out at the start, without a valid stored session: nothing was cleared or signed out. */
  quiet: boolean;
  /** The permissions in force are those the poller reported after the role changed, not the lookup's. */
  changed: boolean;
}

const authModel = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  guards: {
    someone: ({ event }) => event.type === 'IDENTITY' && event.user !== null,
    sameUser: ({ context, event }) => event.type === 'IDENTITY' && event.user !== null && event.user === context.user,
    storedIsUsers: ({ context }) => context.stored !== null && context.stored === context.user,
    storedSomeones: ({ event }) => event.type === 'STORED_SESSION' && event.user !== null,
  },
  actions: {
    signIn: assign(({ event }) => ({
      user: event.type === 'IDENTITY' ? event.user : null,
      loginError: null,
      quiet: false,
      changed: false,
    })),
    resume: assign(({ event }) => {
      const user = event.type === 'STORED_SESSION' ? event.user : null;
      return { user, stored: user };
    }),
    signOutQuietly: assign({ quiet: true }),
    forget: assign({ user: null, stored: null, changed: false }),
    failLogin: assign({ loginError: 'noStaff' }),
    failNetwork: assign({ loginError: 'network' }),
    failDisabled: assign({ loginError: 'disabled' }),
    changePermissions: assign({ changed: true }),
    clearLoginError: assign({ loginError: null }),
    store: assign(({ context }) => ({ stored: context.user, changed: false })),
  },
}).createMachine({
  id: 'authModel',
  context: { user: null, loginError: null, stored: null, quiet: false, changed: false },
  initial: 'readingStoredSession',
  states: {
    // Firebase reports nothing here: it loads only once the first page is shown.
    readingStoredSession: {
      on: {
        STORED_SESSION: [
          { guard: 'storedSomeones', target: 'authenticatedFromCache.awaitingIdentity', actions: 'resume' },
          { target: 'signedOut', actions: 'signOutQuietly' },
        ],
        STORAGE_UNREADABLE: { target: 'signedOut', actions: 'signOutQuietly' },
      },
    },
    lookingUp: {
      on: {
        IDENTITY: [
          { guard: 'sameUser' },
          { guard: 'someone', target: 'lookingUp', reenter: true, actions: 'signIn' },
          { target: 'signingOut' },
        ],
        LOOKUP_OK: { target: 'authenticated', actions: 'store' },
        LOOKUP_FAILED: { target: 'signingOut', actions: 'failLogin' },
        LOOKUP_UNREACHABLE: { target: 'restoringSession', actions: 'failNetwork' },
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
        ACCOUNT_DISABLED: { target: 'signingOut', actions: 'failDisabled' },
      },
    },
    restoringSession: {
      on: {
        RESTORE: [
          { guard: 'storedIsUsers', target: 'authenticatedFromCache', actions: 'clearLoginError' },
          // Nobody's, or someone else's: signed out with the network message.
          { target: 'signingOut' },
        ],
        IDENTITY: [
          { guard: 'sameUser' },
          { guard: 'someone', target: 'lookingUp', actions: 'signIn' },
          { target: 'signingOut' },
        ],
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
        ACCOUNT_DISABLED: { target: 'signingOut', actions: 'failDisabled' },
      },
    },
    authenticatedFromCache: {
      initial: 'awaitingNetwork',
      on: {
        IDENTITY: [
          { guard: 'sameUser' },
          { guard: 'someone', target: 'lookingUp', actions: 'signIn' },
          { target: 'signingOut' },
        ],
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
        ACCOUNT_DISABLED: { target: 'signingOut', actions: 'failDisabled' },
      },
      states: {
        // Anyone else, or nobody, as in every state of the session.
        awaitingIdentity: { on: { IDENTITY: { guard: 'sameUser', target: 'confirming' } } },
        awaitingNetwork: { on: { ONLINE: 'confirming', OFFLINE_RETRY_DUE: 'confirming' } },
        confirming: {
          on: {
            LOOKUP_OK: { target: '#authModel.authenticated', actions: 'store' },
            LOOKUP_UNREACHABLE: 'awaitingNetwork',
            LOOKUP_FAILED: { target: '#authModel.signingOut', actions: 'failLogin' },
          },
        },
      },
    },
    authenticated: {
      initial: 'awaitingRefresh',
      on: {
        IDENTITY: [
          { guard: 'sameUser', target: '.awaitingRefresh' },
          { guard: 'someone', target: 'lookingUp', actions: 'signIn' },
          { target: 'signingOut' },
        ],
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
        ACCOUNT_DISABLED: { target: 'signingOut', actions: 'failDisabled' },
        // Nothing changes in the model; the stimulus checks the poller was told (an assign keeps it a step).
        REFRESH_PERMISSIONS: { actions: assign(({ context }) => ({ ...context })) },
        PERMISSIONS_CHANGED: { actions: 'changePermissions' },
      },
      states: {
        awaitingRefresh: { on: { REFRESH_DUE: 'refreshingIdToken' } },
        refreshingIdToken: { on: { REFRESH_OK: 'awaitingRefresh', REFRESH_FAILED: 'awaitingRefreshRetry' } },
        awaitingRefreshRetry: { on: { RETRY_DUE: 'refreshingIdToken' } },
      },
    },
    signingOut: {
      entry: 'forget',
      on: {
        SIGN_OUT_DONE: 'signedOut',
        SIGN_OUT_FAILED: 'signedOut',
        // The provider's own sign-out report, or a late one, changes nothing here.
        IDENTITY: {},
        LOGOUT: {},
        SESSION_EXPIRED: {},
        ACCOUNT_DISABLED: {},
      },
    },
    signedOut: {
      on: {
        IDENTITY: [{ guard: 'someone', target: 'lookingUp', actions: 'signIn' }, {}],
        LOGOUT: {},
        SESSION_EXPIRED: {},
      },
    },
  },
});
type ModelSnapshot = SnapshotFrom<typeof authModel>;

const testModel = createTestModel(authModel, {
  events: [
    { type: 'STORED_SESSION', user: 'a' },
    { type: 'STORED_SESSION', user: null },
    { type: 'IDENTITY', user: 'a' },
    { type: 'IDENTITY', user: 'b' },
    { type: 'IDENTITY', user: null },
  ],
});

type ModelStep = Step<ModelSnapshot, ModelEvent>;

/**
 * One path per transition of the model: the shortest way to each vertex of the model's graph, then each of its
 * transitions (self-transitions included, which shortest paths to states alone would skip).
 */
function transitionCoveringPaths(): ModelStep[][] {
  const adjacency = testModel.getAdjacencyMap();
  const serialize = testModel.options.serializeState;
  // The empty path: the initial state, reached by xstate.init.
  const [start] = testModel.getPathsFromEvents([]);
  if (!serialize || !start) throw new Error('the test model has no initial state to start from');
  const initialKey = serialize(start.state, undefined, undefined);
  const stepsTo = new Map<string, ModelStep[]>([[initialKey, start.steps]]);
  const queue = [initialKey];
  const paths: ModelStep[][] = [];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    const vertex = adjacency[key as keyof typeof adjacency];
    const steps = stepsTo.get(key);
    if (!vertex || !steps) continue;
    for (const { event, state } of Object.values(vertex.transitions)) {
      const next = [...steps, { state, event }];
      paths.push(next);
      const nextKey = serialize(state, event, vertex.state);
      if (!stepsTo.has(nextKey)) {
        stepsTo.set(nextKey, next);
        queue.push(nextKey);
      }
    }
  }
  // A path that is the start of a longer one adds nothing.
  const names = paths.map(describePath);
  return paths.filter((_, i) => !names.some((other, j) => j !== i && other.startsWith(`${names[i]} →`)));
}

function describeEvent(event: ModelStep['event']): string {
  return event.type === 'IDENTITY' || event.type === 'STORED_SESSION' ? `${event.type}(${event.user ?? 'none'})` : event.type;
}

function describePath(steps: ModelStep[]): string {
  return steps
    .slice(1)
    .map((step) => describeEvent(step.event))
    .join(' → ');
}

// Every transition of the real machine, and those the model-based runs took.
const machineTransitions = new Set(
  [authMachine.root, ...getStateNodes(authMachine.root)].flatMap((node) =>
    [...node.transitions.values()].flat().map(transitionKey),
  ),
);
const takenTransitions = new Set<string>();

function stimuli(harness: AuthHarness) {
  const lookupEmail = () => harness.actor.getSnapshot().context.email ?? '';
  return {
    STORED_SESSION: async (step: { event: { type: 'STORED_SESSION' } }) => {
      const { user } = step.event as Extract<ModelEvent, { type: 'STORED_SESSION' }>;
      // None valid: alice's session, expired.
      writeHarnessSession(harness.storage, USERS.a, { expired: user === null });
      await harness.readStoredSession();
    },
    STORAGE_UNREADABLE: () => harness.failStoredSessionRead(),
    IDENTITY: async (step: { event: { type: 'IDENTITY' } }) => {
      // The graph tools type an executor's event by its type alone; the model's IDENTITY events carry the user.
      const { user } = step.event as Extract<ModelEvent, { type: 'IDENTITY' }>;
      await harness.identity(user ? USERS[user] : null);
    },
    LOOKUP_OK: () => harness.answerLookup({ userData: harness.userDataFor(lookupEmail()) }),
    LOOKUP_FAILED: () => harness.answerLookup({ error: new ApiError(NO_STAFF_ACCOUNT, { status: 404 }) }),
    LOOKUP_UNREACHABLE: () =>
      harness.answerLookup({ error: new ApiError(NETWORK_ERROR_MESSAGE, { cause: new TypeError('Failed to fetch') }) }),
    RESTORE: () => harness.answerRestore(),
    ONLINE: () => harness.goOnline(),
    OFFLINE_RETRY_DUE: () => harness.advance(OFFLINE_LOOKUP_RETRY_MS),
    LOGOUT: () => harness.send({ type: 'auth.logout' }),
    SESSION_EXPIRED: () => harness.send({ type: 'auth.sessionExpired', code: 'TokenExpired' }),
    REFRESH_DUE: () => harness.advance(harness.msUntilRefreshDue()),
    REFRESH_OK: () => harness.answerRefresh({ idTokenExpiresAt: Date.now() + ID_TOKEN_LIFETIME_MS }),
    REFRESH_FAILED: () => harness.answerRefresh({ error: new Error('auth/network-request-failed') }),
    RETRY_DUE: () => harness.advance(ID_TOKEN_REFRESH_RETRY_MS),
    SIGN_OUT_DONE: () => harness.answerSignOut(),
    SIGN_OUT_FAILED: () => harness.answerSignOut({ error: new Error('auth/network-request-failed') }),
    ACCOUNT_DISABLED: () => harness.send({ type: 'auth.accountDisabled', message: ACCOUNT_DISABLED_MESSAGE }),
    REFRESH_PERMISSIONS: async () => {
      const before = harness.pollerRefreshRequests;
      await harness.send({ type: 'auth.refreshPermissions' });
      expect(harness.pollerRefreshRequests).toBe(before + 1);
    },
    PERMISSIONS_CHANGED: () => harness.permissionsLoaded(harness.changedUserDataFor(lookupEmail())),
  };
}

function checks(harness: AuthHarness) {
  const real = () => harness.actor.getSnapshot();
  const signedOutCleanly = (model: ModelSnapshot) => {
    expect(real().context.permissions).toBeNull();
    expect(real().context.email).toBeNull();
    expect(harness.storage.length).toBe(0);
    expect(readStoredSession(harness.storage)).toBeNull();
    expect(real().context.loginError).toBe(model.context.loginError ? LOGIN_ERRORS[model.context.loginError] : null);
  };
  // In every state: the real machine is where the model is, for the same user, with that user's session stored.
  const mirrorsModel = (model: ModelSnapshot) => {
    expect(real().value).toEqual(model.value);
    expect(real().context.email).toBe(model.context.user ? USERS[model.context.user] : null);
    expect(resumableStoredSession(harness.storage, Date.now())?.email ?? null).toBe(
      model.context.stored ? USERS[model.context.stored] : null,
    );
    // Confirming: the session resumed from storage awaits Firebase or the lookup; nothing else carries the tag.
    expect(real().hasTag('confirming')).toBe(
      real().matches({ authenticatedFromCache: 'awaitingIdentity' }) || real().matches({ authenticatedFromCache: 'confirming' }),
    );
    // The browser's online event is heard only while waiting to retry the lookup of a session restored from cache.
    expect(harness.onlineListeners).toBe(real().matches({ authenticatedFromCache: 'awaitingNetwork' }) ? 1 : 0);
    // The permissions are checked with the server while (and only while) the session is authenticated.
    expect(harness.pollers).toBe(real().matches('authenticated') ? 1 : 0);
  };
  return {
    readingStoredSession: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('resolving')).toBe(true);
      expect(harness.storedSessionReads).toHaveLength(1);
      expect(harness.storage.getItem('unrelated')).not.toBeNull();
      expect(harness.lookups).toHaveLength(0);
      expect(harness.effects).toEqual([]);
      expect(harness.body.classes.has('login')).toBe(true);
    },
    lookingUp: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('resolving')).toBe(true);
      expect(model.context.user).not.toBeNull();
      expect(harness.lookups.at(-1)?.email).toBe(real().context.email);
      expect(real().context.permissions).toBeNull();
      expect(real().context.loginError).toBeNull();
      expect(harness.body.classes.has('login')).toBe(false);
    },
    restoringSession: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('resolving')).toBe(true);
      expect(harness.restores.at(-1)?.email).toBe(real().context.email);
      expect(real().context.permissions).toBeNull();
      // Kept for the login screen, in case the stored session is not this user's.
      expect(real().context.loginError).toBe(NETWORK_ERROR_MESSAGE);
      expect(harness.body.classes.has('login')).toBe(false);
    },
    authenticatedFromCache: (model: ModelSnapshot) => {
      mirrorsModel(model);
      const email = real().context.email ?? '';
      expect(real().hasTag('authenticated')).toBe(true);
      expect(real().hasTag('fromCache')).toBe(true);
      expect(model.context.stored).toBe(model.context.user);
      // The permissions rebuilt from the stored session, never a superuser's.
      const restored = restoreStoredSession(harness.storage, email, Date.now());
      expect(restored).not.toBeNull();
      expect(real().context.permissions).toEqual(restored);
      expect(real().context.permissions?.email).toBe(email);
      expect(real().context.permissions?.superuser).toBe(false);
      expect(real().context.loginError).toBeNull();
      expect(harness.body.classes.has('login')).toBe(false);
    },
    'authenticatedFromCache.awaitingIdentity': () => {
      // Straight from the start: nothing asked of Firebase or the server yet, nobody sent anywhere.
      expect(harness.lookups).toHaveLength(0);
      expect(harness.effects).toEqual([]);
      expect(real().context.idTokenExpiresAt).toBeNull();
    },
    'authenticatedFromCache.confirming': () => {
      expect(harness.lookups.at(-1)?.email).toBe(real().context.email);
    },
    authenticated: (model: ModelSnapshot) => {
      mirrorsModel(model);
      const email = real().context.email ?? '';
      const userData = model.context.changed ? harness.changedUserDataFor(email) : harness.userDataFor(email);
      expect(real().hasTag('authenticated')).toBe(true);
      expect(real().hasTag('fromCache')).toBe(false);
      expect(real().context.permissions).toEqual(userData);
      expect(readStoredSession(harness.storage)).toEqual({
        token: userData.token,
        featureLevelLocations: userData.featureLevelLocations,
      });
      expect(harness.body.classes.has('login')).toBe(false);
      expect(real().context.idTokenExpiresAt).toBeGreaterThan(Date.now());
    },
    'authenticated.awaitingRefresh': () => {
      expect(harness.msUntilRefreshDue()).toBeGreaterThan(0);
    },
    'authenticated.refreshingIdToken': () => {
      expect(harness.refreshes.length).toBeGreaterThan(0);
    },
    signingOut: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('resolving')).toBe(true);
      signedOutCleanly(model);
      // Signed out of the provider, and not yet sent to /login.
      expect(harness.effects.at(-1)).toBe('signOut');
    },
    signedOut: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('signedOut')).toBe(true);
      if (model.context.quiet) {
        // At the start without a valid stored session: sent to /login, and nothing cleared or signed out.
        expect(harness.effects).toEqual(['redirect']);
        expect(harness.storage.getItem('unrelated')).not.toBeNull();
        expect(real().context.loginError).toBeNull();
      } else {
        signedOutCleanly(model);
        // Sent to /login only once the provider has signed out.
        expect(harness.effects.slice(-2)).toEqual(['signOut', 'redirect']);
      }
      expect(harness.page.path).toBe('/login');
      expect(harness.body.classes.has('login')).toBe(true);
    },
  };
}

describe('authMachine against its model', () => {
  beforeEach(useFakeDate);
  afterEach(() => vi.useRealTimers());

  const paths = transitionCoveringPaths();

  it('reaches every state of the model', () => {
    const leaves = getStateNodes(authModel.root).filter((node) => node.type === 'atomic');
    const reached = new Set(paths.flatMap((steps) => steps.flatMap(({ state }) => state._nodes)));
    const missed = leaves.filter((node) => !reached.has(node));
    expect(leaves.length).toBe(11);
    expect(missed.map((node) => node.id)).toEqual([]);
  });

  it.each(paths.map((steps) => [describePath(steps), steps] as const))('%s', async (_, steps) => {
    // Storage starts with an unrelated key only; the first step writes what the start reads.
    const harness = createAuthHarness({ onTransition: (t) => takenTransitions.add(transitionKey(t)), storedSession: null });
    const lastStep = steps.at(-1);
    if (!lastStep) throw new Error('empty path');
    await testModel.testPath(
      { state: lastStep.state, steps, weight: steps.length },
      { events: stimuli(harness), states: checks(harness) },
    );
    harness.actor.stop();
  });

  afterAll(() => {
    // Outside a test, so report through an error rather than expect.
    const missed = [...machineTransitions].filter((key) => !takenTransitions.has(key));
    if (missed.length) throw new Error(`Transitions of authMachine no model path took:\n${missed.join('\n')}`);
  });
});
