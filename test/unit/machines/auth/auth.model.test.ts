import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, setup, type SnapshotFrom } from 'xstate';
import { createTestModel, getStateNodes, type Step } from 'xstate/graph';
import { ApiError } from '../../../../src/api/client';
import { readStoredSession } from '../../../../src/app/session-storage';
import {
  createAuthHarness,
  ID_TOKEN_LIFETIME_MS,
  transitionKey,
  useFakeDate,
  type AuthHarness,
} from '../../../fixtures/auth-harness';
import { authMachine, ID_TOKEN_REFRESH_RETRY_MS } from '../../../../src/machines/auth/auth.machine';

/**
 * Model-based test of `authMachine`. The model below restates spec §4 and §9 as a statechart with no actors or
 * timers (the graph tools cannot traverse those); each model event is a stimulus the test applies to the real
 * machine (an identity report, an answer of a fake actor, time passing), and each model state is checked against the
 * real machine's state, context and side effects. Paths are generated to take every transition of the model, and the
 * run must take every transition of the real machine.
 */
const USERS = { a: 'alice@example.com', b: 'bob@example.com' } as const;
type UserKey = keyof typeof USERS;
const NO_STAFF_ACCOUNT = 'No staff account for this e-mail';

type ModelEvent =
  | { type: 'IDENTITY'; user: UserKey | null }
  | { type: 'LOOKUP_OK' }
  | { type: 'LOOKUP_FAILED' }
  | { type: 'LOGOUT' }
  | { type: 'SESSION_EXPIRED' }
  | { type: 'REFRESH_DUE' }
  | { type: 'REFRESH_OK' }
  | { type: 'REFRESH_FAILED' }
  | { type: 'RETRY_DUE' }
  | { type: 'SIGN_OUT_DONE' }
  | { type: 'SIGN_OUT_FAILED' };

interface ModelContext {
  user: UserKey | null;
  loginError: boolean;
}

const authModel = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  guards: {
    someone: ({ event }) => event.type === 'IDENTITY' && event.user !== null,
    sameUser: ({ context, event }) => event.type === 'IDENTITY' && event.user !== null && event.user === context.user,
  },
  actions: {
    signIn: assign(({ event }) => ({ user: event.type === 'IDENTITY' ? event.user : null, loginError: false })),
    forget: assign({ user: null }),
    failLogin: assign({ loginError: true }),
  },
}).createMachine({
  id: 'authModel',
  context: { user: null, loginError: false },
  initial: 'resolving',
  states: {
    resolving: {
      on: {
        IDENTITY: [{ guard: 'someone', target: 'lookingUp', actions: 'signIn' }, { target: 'signingOut' }],
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
      },
    },
    lookingUp: {
      on: {
        IDENTITY: [
          { guard: 'sameUser' },
          { guard: 'someone', target: 'lookingUp', reenter: true, actions: 'signIn' },
          { target: 'signingOut' },
        ],
        LOOKUP_OK: 'authenticated',
        LOOKUP_FAILED: { target: 'signingOut', actions: 'failLogin' },
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
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
  return event.type === 'IDENTITY' ? `IDENTITY(${event.user ?? 'none'})` : event.type;
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
    IDENTITY: async (step: { event: { type: 'IDENTITY' } }) => {
      // The graph tools type an executor's event by its type alone; the model's IDENTITY events carry the user.
      const { user } = step.event as Extract<ModelEvent, { type: 'IDENTITY' }>;
      await harness.identity(user ? USERS[user] : null);
    },
    LOOKUP_OK: () => harness.answerLookup({ userData: harness.userDataFor(lookupEmail()) }),
    LOOKUP_FAILED: () => harness.answerLookup({ error: new ApiError(NO_STAFF_ACCOUNT, { status: 404 }) }),
    LOGOUT: () => harness.send({ type: 'auth.logout' }),
    SESSION_EXPIRED: () => harness.send({ type: 'auth.sessionExpired', code: 'TokenExpired' }),
    REFRESH_DUE: () => harness.advance(harness.msUntilRefreshDue()),
    REFRESH_OK: () => harness.answerRefresh({ idTokenExpiresAt: Date.now() + ID_TOKEN_LIFETIME_MS }),
    REFRESH_FAILED: () => harness.answerRefresh({ error: new Error('auth/network-request-failed') }),
    RETRY_DUE: () => harness.advance(ID_TOKEN_REFRESH_RETRY_MS),
    SIGN_OUT_DONE: () => harness.answerSignOut(),
    SIGN_OUT_FAILED: () => harness.answerSignOut({ error: new Error('auth/network-request-failed') }),
  };
}

function checks(harness: AuthHarness) {
  const real = () => harness.actor.getSnapshot();
  const signedOutCleanly = (model: ModelSnapshot) => {
    expect(real().context.permissions).toBeNull();
    expect(real().context.email).toBeNull();
    expect(harness.storage.length).toBe(0);
    expect(readStoredSession(harness.storage)).toBeNull();
    expect(real().context.loginError).toBe(model.context.loginError ? NO_STAFF_ACCOUNT : null);
  };
  // In every state: the real machine is where the model is, for the same user.
  const mirrorsModel = (model: ModelSnapshot) => {
    expect(real().value).toEqual(model.value);
    expect(real().context.email).toBe(model.context.user ? USERS[model.context.user] : null);
  };
  return {
    resolving: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('resolving')).toBe(true);
      expect(harness.storage.getItem('unrelated')).not.toBeNull();
      expect(harness.lookups).toHaveLength(0);
      expect(harness.signOuts).toHaveLength(0);
      expect(harness.page.redirects).toBe(0);
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
    authenticated: (model: ModelSnapshot) => {
      mirrorsModel(model);
      const userData = harness.userDataFor(real().context.email ?? '');
      expect(real().hasTag('authenticated')).toBe(true);
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
      expect(harness.signOuts.length).toBe(harness.page.redirects + 1);
    },
    signedOut: (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(real().hasTag('signedOut')).toBe(true);
      signedOutCleanly(model);
      expect(harness.page.path).toBe('/login');
      expect(harness.page.redirects).toBe(harness.signOuts.length);
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
    expect(leaves.length).toBe(7);
    expect(missed.map((node) => node.id)).toEqual([]);
  });

  it.each(paths.map((steps) => [describePath(steps), steps] as const))('%s', async (_, steps) => {
    const harness = createAuthHarness({ onTransition: (t) => takenTransitions.add(transitionKey(t)) });
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
