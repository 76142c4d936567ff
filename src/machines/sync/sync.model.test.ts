import { afterAll, describe, expect, it } from 'vitest';
import { assign, setup, type SnapshotFrom } from 'xstate';
import { createTestModel, getStateNodes, type Step } from 'xstate/graph';
import { SYNC_TYPES, type SyncType } from '../../contract/enforcement';
import {
  selectCurrentType,
  selectIsDataReady,
  selectIsFreshSync,
  selectIsSyncing,
  selectLastErrors,
  selectLastRound,
  selectProgress,
  selectResults,
  STATUS_CHECK_INTERVAL_MS,
  SYNC_LOCK_NAME,
  syncMachine,
  type RoundOutcome,
  type SyncStage,
  type TypeProgress,
} from './sync.machine';
import type { SyncTypeResult } from '../../worker/enforcement-worker-api';
import { transitionKey } from '../../../test/fixtures/auth-harness';
import { describePath, transitionCoveringPaths } from '../../../test/fixtures/model-paths';
import {
  createSyncHarness,
  doneResult,
  failedResult,
  FakeLocks,
  minutes,
  SESSION_TOKEN,
  SESSIONS,
  skippedResult,
  storeStatus,
  syncedLocations,
  API_BASE,
  type SessionKey,
  type SyncHarness,
} from '../../../test/fixtures/sync-harness';

/**
 * Model-based test of `syncMachine`. The model restates spec §4, §8 and §9 as a statechart with no actors or timers
 * (the graph tools cannot traverse those); each model event is a stimulus applied to the real machine, run with its
 * real actors (sync.actors.ts) over a fake worker and fake Web Locks: a session change, an answer of the worker or the
 * lock, or time passing on the SimulatedClock. Each model state is checked against the real machine's state, context
 * and effects (lock held or released, worker calls, logs, session errors). Paths take every transition of the model,
 * and the run must take every transition of the real machine.
 */
type ModelEvent =
  | { type: 'SESSION'; session: SessionKey }
  | { type: 'REQUEST' }
  | { type: 'TICK' }
  | { type: 'STATUS_EMPTY' }
  | { type: 'STATUS_NEVER_SYNCED' }
  /** One type last synced exactly 15:00 ago, the others 14:59. */
  | { type: 'STATUS_STALE' }
  /** Every type last synced 14:59 ago. */
  | { type: 'STATUS_RECENT' }
  | { type: 'STATUS_UNAVAILABLE' }
  | { type: 'STATUS_FAILED' }
  /** A stale status, and then the lock request throws at once. */
  | { type: 'STALE_LOCK_THROWS' }
  | { type: 'LOCK_GRANTED' }
  | { type: 'LOCK_UNAVAILABLE' }
  | { type: 'LOCK_FAILED' }
  | { type: 'PROGRESS' }
  | { type: 'TYPE_DONE' }
  | { type: 'TYPE_SKIPPED' }
  | { type: 'TYPE_FAILED' }
  | { type: 'TYPE_SESSION_ERROR' }
  | { type: 'TYPE_THREW' }
  | { type: 'PURGE_DONE' }
  | { type: 'PURGE_FAILED' };

interface ModelContext {
  session: SessionKey | null;
  fresh: boolean;
  requested: boolean;
  /** How the round that led to `waiting` ended; null when no round ended since the last check. */
  outcome: RoundOutcome | null;
}

const canSync = (key: SessionKey) => SESSIONS[key].signedIn && SESSIONS[key].locationIds.length > 0;
const sameSession = (a: SessionKey | null, b: SessionKey) =>
  a !== null &&
  SESSIONS[a].signedIn === SESSIONS[b].signedIn &&
  syncedLocations(a).join() === syncedLocations(b).join();

const syncModel = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  guards: {
    sameSession: ({ context, event }) => event.type === 'SESSION' && sameSession(context.session, event.session),
    canSync: ({ event }) => event.type === 'SESSION' && canSync(event.session),
    requested: ({ context }) => context.requested,
  },
  actions: {
    setSession: assign({ session: ({ event }) => (event.type === 'SESSION' ? event.session : null) }),
    startCheck: assign({ fresh: false, outcome: null }),
    request: assign({ requested: true }),
    clearRequest: assign({ requested: false }),
    markFresh: assign({ fresh: true }),
    endRound: assign((_, params: { outcome: RoundOutcome }) => ({ outcome: params.outcome })),
    /** Marks an event the real machine must ignore (the graph tools skip transitions with no target or action). */
    ignored: () => {},
  },
}).createMachine({
  id: 'syncModel',
  context: { session: null, fresh: false, requested: false, outcome: null },
  initial: 'idle',
  on: {
    SESSION: [
      { guard: 'sameSession' },
      { guard: 'canSync', target: '.running', reenter: true, actions: 'setSession' },
      { target: '.idle', actions: 'setSession' },
    ],
  },
  states: {
    idle: {
      entry: 'startCheck',
      // Nothing runs: no check, whatever the time; "Sync now" does nothing.
      on: { REQUEST: { actions: 'ignored' }, TICK: { actions: 'ignored' } },
    },
    running: {
      initial: 'checking',
      // Time passing outside `waiting` starts nothing: no second check or sync while one runs.
      on: { TICK: { actions: 'ignored' } },
      states: {
        checking: {
          entry: 'startCheck',
          exit: 'clearRequest',
          on: {
            REQUEST: { actions: 'request' },
            STATUS_EMPTY: { target: 'syncing', actions: 'markFresh' },
            STATUS_NEVER_SYNCED: 'syncing',
            STATUS_STALE: 'syncing',
            STATUS_RECENT: [{ guard: 'requested', target: 'syncing' }, { target: 'waiting' }],
            STATUS_UNAVAILABLE: 'waiting',
            STATUS_FAILED: 'waiting',
            STALE_LOCK_THROWS: { target: 'waiting', actions: { type: 'endRound', params: { outcome: 'failed' } } },
          },
        },
        waiting: {
          on: {
            TICK: 'checking',
            REQUEST: { target: 'checking', actions: 'request' },
          },
        },
        syncing: {
          initial: 'acquiringLock',
          // Only one sync at a time in this tab: "Sync now" during a sync is dropped.
          on: { REQUEST: { actions: 'ignored' } },
          states: {
            acquiringLock: {
              on: {
                LOCK_GRANTED: 'types',
                LOCK_UNAVAILABLE: { target: '#syncModel.running.waiting', actions: { type: 'endRound', params: { outcome: 'lockUnavailable' } } },
                LOCK_FAILED: { target: '#syncModel.running.waiting', actions: { type: 'endRound', params: { outcome: 'failed' } } },
              },
            },
            types: {
              initial: 'valid',
              on: {
                PROGRESS: { actions: 'ignored' },
                TYPE_SESSION_ERROR: '#syncModel.running.sessionRejected',
                TYPE_THREW: { target: '#syncModel.running.waiting', actions: { type: 'endRound', params: { outcome: 'failed' } } },
              },
              states: {
                valid: { on: { TYPE_DONE: 'expired', TYPE_FAILED: 'expired' } },
                expired: { on: { TYPE_DONE: 'spothero', TYPE_FAILED: 'spothero' } },
                spothero: { on: { TYPE_DONE: 'parkwhiz', TYPE_FAILED: 'parkwhiz' } },
                parkwhiz: { on: { TYPE_DONE: 'monthly_parkers', TYPE_FAILED: 'monthly_parkers' } },
                monthly_parkers: {
                  on: {
                    TYPE_DONE: '#syncModel.running.syncing.purging',
                    TYPE_SKIPPED: '#syncModel.running.syncing.purging',
                    TYPE_FAILED: '#syncModel.running.syncing.purging',
                  },
                },
              },
            },
            purging: {
              on: {
                PURGE_DONE: { target: '#syncModel.running.waiting', actions: { type: 'endRound', params: { outcome: 'completed' } } },
                PURGE_FAILED: { target: '#syncModel.running.waiting', actions: { type: 'endRound', params: { outcome: 'completed' } } },
              },
            },
          },
        },
        sessionRejected: {
          on: { REQUEST: { actions: 'ignored' } },
        },
      },
    },
  },
});
type ModelSnapshot = SnapshotFrom<typeof syncModel>;
type ModelStep = Step<ModelSnapshot, ModelEvent>;

const testModel = createTestModel(syncModel, {
  events: (Object.keys(SESSIONS) as SessionKey[]).map((session) => ({ type: 'SESSION', session }) as const),
  // Vertices are states with their context, however they were reached.
  serializeTransition: () => '',
});

const describeEvent = (event: ModelEvent) => (event.type === 'SESSION' ? `SESSION(${event.session})` : event.type);

// Every transition of the real machine, and those the model-based runs took.
const machineTransitions = new Set(
  [syncMachine.root, ...getStateNodes(syncMachine.root)].flatMap((node) =>
    [...node.transitions.values()].flat().map(transitionKey),
  ),
);
const takenTransitions = new Set<string>();

const noProgress = (): Record<SyncType, TypeProgress> =>
  Object.fromEntries(SYNC_TYPES.map((type) => [type, { pagesDone: 0, recordsDone: 0 }])) as Record<SyncType, TypeProgress>;

/** What the run expects of the real machine's effects, kept by the stimuli as they apply each event. */
function createExpectations() {
  return {
    logs: [] as Array<{ stage: SyncStage; message: string }>,
    sessionErrors: [] as string[],
    results: {} as Partial<Record<SyncType, SyncTypeResult>>,
    lastErrors: {} as Partial<Record<SyncType, string>>,
    progress: noProgress(),
    /** Index into the worker's syncType calls where the current round began. */
    roundStart: 0,
    progressCount: 0,
  };
}
type Expectations = ReturnType<typeof createExpectations>;

function stimuli(harness: SyncHarness, expected: Expectations) {
  const currentType = (): SyncType => {
    const call = harness.worker.typeCalls.at(-1);
    if (!call) throw new Error('no type is syncing');
    return call.request.type;
  };
  const answerType = async (result: SyncTypeResult) => {
    const type = currentType();
    expected.results[type] = result;
    if (result.outcome === 'failed') {
      expected.lastErrors[type] = result.message;
      expected.logs.push({ stage: type, message: result.message });
    } else {
      delete expected.lastErrors[type];
    }
    await harness.answerType(result);
  };
  // Each type's last sync, as the worker reports it: 14:59 ago is still up to date, 15:00 is stale.
  const allRecent = Object.fromEntries(SYNC_TYPES.map((type) => [type, minutes(14, 59)]));
  return {
    SESSION: async (step: { event: { type: 'SESSION' } }) => {
      const { session } = step.event as Extract<ModelEvent, { type: 'SESSION' }>;
      if (!canSync(session)) Object.assign(expected, { results: {}, lastErrors: {}, progress: noProgress() });
      await harness.session(session);
    },
    REQUEST: () => harness.send({ type: 'sync.requested' }),
    TICK: async () => {
      if (harness.snapshot().matches({ running: 'waiting' })) {
        // Exactly 3 minutes after the last check (or sync) ended, not a millisecond earlier.
        const checks = harness.worker.statusCalls.length;
        await harness.advance(STATUS_CHECK_INTERVAL_MS - 1);
        expect(harness.worker.statusCalls).toHaveLength(checks);
        await harness.advance(1);
        expect(harness.worker.statusCalls).toHaveLength(checks + 1);
      } else {
        await harness.advance(STATUS_CHECK_INTERVAL_MS);
      }
    },
    STATUS_EMPTY: () => harness.answerStatus(storeStatus(harness.now(), { empty: true })),
    STATUS_NEVER_SYNCED: () =>
      harness.answerStatus(storeStatus(harness.now(), { ago: { ...allRecent, expired: null } })),
    STATUS_STALE: () =>
      harness.answerStatus(storeStatus(harness.now(), { ago: { ...allRecent, monthly_parkers: minutes(15) } })),
    STATUS_RECENT: () => harness.answerStatus(storeStatus(harness.now(), { ago: allRecent })),
    STATUS_UNAVAILABLE: () => harness.answerStatus(storeStatus(harness.now(), { available: false, empty: true })),
    STATUS_FAILED: () => {
      expected.logs.push({ stage: 'status', message: 'The worker could not be reached' });
      return harness.answerStatus({ error: new Error('The worker could not be reached') });
    },
    STALE_LOCK_THROWS: () => {
      harness.locks.throwOnRequest = new TypeError('navigator.locks is broken');
      expected.logs.push({ stage: 'lock', message: 'navigator.locks is broken' });
      return harness.answerStatus(storeStatus(harness.now(), { ago: { ...allRecent, valid: minutes(20) } }));
    },
    LOCK_GRANTED: () => {
      expected.roundStart = harness.worker.typeCalls.length;
      expected.progress = noProgress();
      return harness.grantLock();
    },
    LOCK_UNAVAILABLE: () => harness.denyLock(),
    LOCK_FAILED: () => {
      expected.logs.push({ stage: 'lock', message: 'The lock request was aborted' });
      return harness.failLock(new DOMException('The lock request was aborted', 'AbortError'));
    },
    PROGRESS: () => {
      const pagesDone = ++expected.progressCount;
      expected.progress[currentType()] = { pagesDone, recordsDone: pagesDone * 2000 };
      return harness.progress(pagesDone, pagesDone * 2000);
    },
    TYPE_DONE: () => answerType(doneResult()),
    TYPE_SKIPPED: () => answerType(skippedResult),
    TYPE_FAILED: () => answerType(failedResult(`${currentType()}: HTTP 502 from the API`)),
    TYPE_SESSION_ERROR: () => {
      expected.sessionErrors.push('TokenExpired');
      return answerType(failedResult('jwt expired', 'TokenExpired'));
    },
    TYPE_THREW: () => {
      const type = currentType();
      expected.lastErrors[type] = 'The worker was terminated';
      expected.logs.push({ stage: type, message: 'The worker was terminated' });
      return harness.answerType({ error: new Error('The worker was terminated') });
    },
    PURGE_DONE: () => harness.answerPurge({ purged: 4 }),
    PURGE_FAILED: () => {
      expected.logs.push({ stage: 'purge', message: 'QuotaExceededError' });
      return harness.answerPurge({ error: new Error('QuotaExceededError') });
    },
  };
}

function checks(harness: SyncHarness, expected: Expectations) {
  const real = () => harness.snapshot();
  const children = () =>
    Object.values(real().children)
      .map((child) => String(child?.src))
      .sort();
  const typesOfRound = () => harness.worker.typeCalls.slice(expected.roundStart).map((call) => call.request.type);
  // In every state: the real machine is where the model is, and its effects are those expected.
  const mirrorsModel = (model: ModelSnapshot) => {
    expect(real().value).toEqual(model.value);
    expect(real().context.session?.locationIds ?? null).toEqual(model.context.session ? syncedLocations(model.context.session) : null);
    expect(harness.logs).toEqual(expected.logs);
    expect(harness.sessionErrors).toEqual(expected.sessionErrors);
    expect(selectResults(real())).toEqual(expected.results);
    expect(selectLastErrors(real())).toEqual(expected.lastErrors);
    expect(harness.locks.held().length).toBeLessThanOrEqual(1);
  };
  const notSyncing = () => {
    expect(selectIsSyncing(real())).toBe(false);
    expect(selectIsFreshSync(real())).toBe(false);
    expect(harness.locks.held()).toEqual([]);
    expect(selectCurrentType(real())).toBeNull();
  };
  return {
    idle: (model: ModelSnapshot) => {
      mirrorsModel(model);
      notSyncing();
      expect(real().hasTag('stopped')).toBe(true);
      expect(children()).toEqual([]);
      expect(selectIsDataReady(real())).toBe(false);
      expect(selectLastRound(real())).toBeNull();
      expect(selectProgress(real())).toEqual(noProgress());
    },
    'running.checking': (model: ModelSnapshot) => {
      mirrorsModel(model);
      notSyncing();
      expect(real().hasTag('checking')).toBe(true);
      // The check runs at once on entering, and nothing else does.
      expect(children()).toEqual(['checkStatus']);
      expect(real().context.syncRequested).toBe(model.context.requested);
    },
    'running.waiting': (model: ModelSnapshot) => {
      mirrorsModel(model);
      notSyncing();
      expect(real().tags.size).toBe(0);
      expect(children()).toEqual([]);
      expect(selectIsDataReady(real())).toBe(true);
      if (model.context.outcome) {
        expect(selectLastRound(real())).toEqual({
          at: real().context.checkedAt,
          fresh: real().context.fresh,
          outcome: model.context.outcome,
        });
      }
    },
    'running.syncing': (model: ModelSnapshot) => {
      mirrorsModel(model);
      expect(selectIsSyncing(real())).toBe(true);
      expect(selectIsFreshSync(real())).toBe(model.context.fresh);
      expect(harness.locks.requests.at(-1)?.name).toBe(SYNC_LOCK_NAME);
      // A data-ready flag is cleared only for a fresh sync.
      if (!model.context.fresh) expect(selectIsDataReady(real())).toBe(true);
    },
    'running.syncing.acquiringLock': () => {
      expect(children()).toEqual(['acquireSyncLock']);
      expect(harness.locks.requests.at(-1)?.state).toBe('pending');
      expect(harness.locks.held()).toEqual([]);
      expect(selectCurrentType(real())).toBeNull();
    },
    'running.syncing.types': (model: ModelSnapshot) => {
      const value = model.value as { running: { syncing: { types: SyncType } } };
      const type = value.running.syncing.types;
      expect(children()).toEqual(['acquireSyncLock', 'syncType']);
      expect(harness.locks.held()).toEqual([harness.locks.requests.at(-1)]);
      expect(selectCurrentType(real())).toBe(type);
      expect(selectIsDataReady(real())).toBe(!model.context.fresh);
      // The types of this round, in order, up to this one.
      expect(typesOfRound()).toEqual(SYNC_TYPES.slice(0, SYNC_TYPES.indexOf(type) + 1));
      const call = harness.worker.typeCalls.at(-1);
      expect(call?.request).toEqual({
        type,
        apiBase: API_BASE,
        locationIds: model.context.session ? syncedLocations(model.context.session) : [],
        now: real().context.checkedAt,
      });
      expect(call?.auth.sessionToken).toBe(SESSION_TOKEN);
      expect(selectProgress(real())).toEqual(expected.progress);
    },
    'running.syncing.purging': () => {
      expect(children()).toEqual(['acquireSyncLock', 'purge']);
      // The lock is still held while old records are purged.
      expect(harness.locks.held()).toEqual([harness.locks.requests.at(-1)]);
      expect(typesOfRound()).toEqual([...SYNC_TYPES]);
      expect(harness.worker.purgeCalls.at(-1)?.now).toBe(real().context.checkedAt);
      expect(selectIsDataReady(real())).toBe(true);
      expect(selectCurrentType(real())).toBeNull();
    },
    'running.sessionRejected': (model: ModelSnapshot) => {
      mirrorsModel(model);
      notSyncing();
      expect(children()).toEqual([]);
      expect(selectIsDataReady(real())).toBe(true);
      expect(selectLastRound(real())?.outcome).toBe('sessionError');
      expect(harness.sessionErrors.at(-1)).toBe('TokenExpired');
    },
  };
}

describe('syncMachine against its model', () => {
  const paths = transitionCoveringPaths(testModel, describeEvent);

  it('reaches every state of the model', () => {
    const leaves = getStateNodes(syncModel.root).filter((node) => node.type === 'atomic');
    const reached = new Set(paths.flatMap((steps) => steps.flatMap(({ state }) => state._nodes)));
    const missed = leaves.filter((node) => !reached.has(node));
    expect(leaves.length).toBe(11);
    expect(missed.map((node) => node.id)).toEqual([]);
  });

  it.each(paths.map((steps) => [describePath(steps, describeEvent), steps] as const))(
    '%s',
    async (_, steps: ModelStep[]) => {
      const harness = createSyncHarness({
        locks: new FakeLocks('manual'),
        onTransition: (t) => takenTransitions.add(transitionKey(t)),
      });
      const expected = createExpectations();
      const lastStep = steps.at(-1);
      if (!lastStep) throw new Error('empty path');
      await testModel.testPath(
        { state: lastStep.state, steps, weight: steps.length },
        { events: stimuli(harness, expected), states: checks(harness, expected) },
      );
      harness.actor.stop();
    },
  );

  afterAll(() => {
    // Outside a test, so report through an error rather than expect.
    const missed = [...machineTransitions].filter((key) => !takenTransitions.has(key));
    if (missed.length) throw new Error(`Transitions of syncMachine no model path took:\n${missed.join('\n')}`);
  });
});
