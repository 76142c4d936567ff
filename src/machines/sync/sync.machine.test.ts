import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, type InspectionEvent } from 'xstate';
import { SYNC_TYPES } from '../../contract/enforcement';
import {
  isSyncDue,
  selectCurrentType,
  selectIsDataReady,
  selectIsFreshSync,
  selectLastErrors,
  selectLastRound,
  selectProgress,
  selectUnavailableReason,
  STATUS_CHECK_INTERVAL_MS,
  SYNC_LOCK_NAME,
  SYNC_STALE_AFTER_MS,
  syncMachine,
} from './sync.machine';
import { createSyncImplementations } from './sync.actors';
import {
  createFakeWorker,
  createSyncHarness,
  doneResult,
  failedResult,
  FakeLocks,
  minutes,
  START_TIME,
  storeStatus,
  type SyncHarness,
} from '../../../test/fixtures/sync-harness';
import { flush } from '../../../test/fixtures/auth-harness';

const value = (harness: SyncHarness) => harness.snapshot().value;

/** Signs in with locations A and answers the first check with `status`. */
async function started(harness: SyncHarness, status = storeStatus(harness.now(), { ago: { valid: minutes(20) } })) {
  await harness.session('A');
  await harness.answerStatus(status);
}

/** Answers every remaining type with `done` and the purge. */
async function finishRound(harness: SyncHarness) {
  while (harness.snapshot().matches({ running: { syncing: 'types' } })) await harness.answerType(doneResult());
  await harness.answerPurge({ purged: 0 });
}

describe('syncMachine: when it runs', () => {
  it('runs nothing until signed in with enforcement locations', async () => {
    const harness = createSyncHarness();
    expect(value(harness)).toBe('idle');
    await harness.session('noLocations');
    await harness.advance(STATUS_CHECK_INTERVAL_MS * 3);
    expect(harness.worker.statusCalls).toHaveLength(0);
    await harness.session('A');
    expect(harness.worker.statusCalls).toHaveLength(1);
  });

  it('checks at once, then 3 minutes after each check or sync ends', async () => {
    const harness = createSyncHarness();
    await started(harness, storeStatus(harness.now()));
    expect(value(harness)).toEqual({ running: 'waiting' });
    for (let round = 2; round <= 4; round++) {
      await harness.advance(STATUS_CHECK_INTERVAL_MS - 1);
      expect(harness.worker.statusCalls).toHaveLength(round - 1);
      await harness.advance(1);
      expect(harness.worker.statusCalls).toHaveLength(round);
      await harness.answerStatus(storeStatus(harness.now()));
    }
  });

  it.each([
    // Last synced before the first check; the checks come at 0, 3, 6, 9, 12 minutes.
    { ago: '6:00', lastSyncedAgo: minutes(6), syncsAtCheck: 4, ageThen: '15:00' },
    { ago: '5:59', lastSyncedAgo: minutes(5, 59), syncsAtCheck: 5, ageThen: '17:59, not at 14:59' },
  ])('a type synced $ago before the first check is synced again at check $syncsAtCheck, aged $ageThen', async ({ lastSyncedAgo, syncsAtCheck }) => {
    const harness = createSyncHarness();
    // The store's answer stays the same; only the clock moves.
    const status = storeStatus(START_TIME, { ago: { valid: lastSyncedAgo, expired: 0, spothero: 0, parkwhiz: 0, monthly_parkers: 0 } });
    await harness.session('A');
    for (let check = 1; check < syncsAtCheck; check++) {
      await harness.answerStatus(status);
      expect(value(harness)).toEqual({ running: 'waiting' });
      await harness.advance(STATUS_CHECK_INTERVAL_MS);
    }
    await harness.answerStatus(status);
    expect(value(harness)).toEqual({ running: { syncing: 'acquiringLock' } });
    expect(harness.snapshot().context.checkedAt).toBe(START_TIME + (syncsAtCheck - 1) * STATUS_CHECK_INTERVAL_MS);
  });

  it('a change of locations while running restarts the checks for the new locations', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.answerType(doneResult());
    await harness.session('B');
    expect(value(harness)).toEqual({ running: 'checking' });
    expect(harness.locks.held()).toEqual([]);
    await harness.answerStatus(storeStatus(harness.now(), { empty: true }));
    await harness.grantLock();
    expect(harness.worker.typeCalls.at(-1)?.request).toMatchObject({ type: 'valid', locationIds: [12] });
  });

  it('the same session reported again (ids in another order) restarts nothing', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.send({ type: 'sync.sessionChanged', signedIn: true, locationIds: [3, 7], apiBase: 'https://functions.example.test/api' });
    expect(value(harness)).toEqual({ running: { syncing: { types: 'valid' } } });
    expect(harness.worker.statusCalls).toHaveLength(1);
    expect(harness.worker.typeCalls).toHaveLength(1);
  });

  it('sign-out stops the sync, drops late answers and forgets the previous sync', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.answerType(failedResult('HTTP 500'));
    await harness.progress(2, 4000);
    await harness.session('signedOut');
    expect(value(harness)).toBe('idle');
    expect(harness.locks.held()).toEqual([]);
    // The worker finishes the type it had in hand; nobody listens any more.
    await harness.answerType(doneResult());
    expect(value(harness)).toBe('idle');
    expect(harness.snapshot().context).toMatchObject({ results: {}, lastErrors: {}, lastRound: null, dataReady: false });
    expect(selectProgress(harness.snapshot()).expired).toEqual({ pagesDone: 0, recordsDone: 0 });
  });

  it('a store without IndexedDB is not synced: lookups return empty results and the reason is kept', async () => {
    const harness = createSyncHarness();
    await started(harness, storeStatus(harness.now(), { available: false, empty: true }));
    expect(value(harness)).toEqual({ running: 'waiting' });
    expect(harness.locks.requests).toHaveLength(0);
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    expect(selectUnavailableReason(harness.snapshot())).toBe('IndexedDB is not available in this browser');
  });
});

describe('syncMachine: one sync at a time', () => {
  it('"Sync now" while waiting checks at once and syncs even when nothing is stale', async () => {
    const harness = createSyncHarness();
    await started(harness, storeStatus(harness.now()));
    await harness.send({ type: 'sync.requested' });
    expect(harness.worker.statusCalls).toHaveLength(2);
    await harness.answerStatus(storeStatus(harness.now()));
    expect(value(harness)).toEqual({ running: { syncing: 'acquiringLock' } });
    expect(selectIsFreshSync(harness.snapshot())).toBe(false);
  });

  it('"Sync now" during a sync is dropped, not queued', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.send({ type: 'sync.requested' });
    await finishRound(harness);
    expect(value(harness)).toEqual({ running: 'waiting' });
    expect(harness.worker.statusCalls).toHaveLength(1);
    expect(harness.worker.typeCalls).toHaveLength(5);
    expect(harness.locks.requests).toHaveLength(1);
  });

  it('another tab holding the lock skips the round; this tab syncs at the next check once it is free', async () => {
    const locks = new FakeLocks('auto');
    const tabs = [createSyncHarness({ locks }), createSyncHarness({ locks })] as const;
    const [first, second] = tabs;
    await started(first);
    expect(first.snapshot().matches({ running: { syncing: { types: 'valid' } } })).toBe(true);

    await started(second);
    expect(value(second)).toEqual({ running: 'waiting' });
    expect(selectLastRound(second.snapshot())).toMatchObject({ outcome: 'lockUnavailable' });
    expect(second.worker.typeCalls).toHaveLength(0);
    expect(second.logs).toEqual([]);

    await finishRound(first);
    expect(locks.held()).toEqual([]);
    await second.advance(STATUS_CHECK_INTERVAL_MS);
    await second.answerStatus(storeStatus(second.now(), { ago: { valid: minutes(20) } }));
    expect(second.snapshot().matches({ running: { syncing: { types: 'valid' } } })).toBe(true);
    expect(locks.held()).toHaveLength(1);
  });
});

describe('syncMachine: the lock is released on every exit path', () => {
  type Exit = { name: string; exit: (harness: SyncHarness) => Promise<unknown> };
  const exits: Exit[] = [
    { name: 'all types done and purged', exit: finishRound },
    {
      name: 'the purge fails',
      exit: async (harness) => {
        for (const _ of SYNC_TYPES) await harness.answerType(doneResult());
        await harness.answerPurge({ error: new Error('purge failed') });
      },
    },
    { name: 'the worker call throws', exit: (harness) => harness.answerType({ error: new Error('worker gone') }) },
    { name: 'a session error', exit: (harness) => harness.answerType(failedResult('jwt expired', 'InvalidToken')) },
    { name: 'sign-out', exit: (harness) => harness.session('signedOut') },
    { name: 'no locations any more', exit: (harness) => harness.session('noLocations') },
    { name: 'a change of locations', exit: (harness) => harness.session('B') },
    { name: 'the actor is stopped', exit: async (harness) => harness.actor.stop() },
  ];

  it.each(exits)('$name', async ({ exit }) => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    expect(harness.locks.held()).toHaveLength(1);
    await exit(harness);
    await harness.advance(0);
    expect(harness.locks.held()).toEqual([]);
    expect(harness.locks.requests[0]?.state).toBe('released');
  });

  it.each([
    { name: 'sign-out', leave: (harness: SyncHarness) => harness.session('signedOut') },
    { name: 'the actor is stopped', leave: async (harness: SyncHarness) => harness.actor.stop() },
  ])('left before the lock was granted ($name): it is let go as soon as it is granted', async ({ leave }) => {
    const harness = createSyncHarness();
    await started(harness);
    await leave(harness);
    await harness.grantLock();
    expect(harness.locks.held()).toEqual([]);
    expect(harness.locks.requests[0]?.state).toBe('released');
    expect(harness.worker.typeCalls).toHaveLength(0);
  });
});

describe('syncMachine: the data-ready flag', () => {
  it('is not cleared for a sync of a store that has data', async () => {
    const harness = createSyncHarness();
    const seen = new Set<boolean>();
    harness.actor.subscribe((snapshot) => seen.add(snapshot.context.dataReady));
    await started(harness);
    seen.clear();
    await harness.grantLock();
    await finishRound(harness);
    expect([...seen]).toEqual([true]);
  });

  it('is cleared for a fresh sync, and set when all types finished, before the purge', async () => {
    const harness = createSyncHarness();
    await harness.session('A');
    // Later rounds: the store was emptied (e.g. rebuilt for a new version), so the flag was set before.
    await harness.answerStatus(storeStatus(harness.now()));
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    await harness.advance(STATUS_CHECK_INTERVAL_MS);
    await harness.answerStatus(storeStatus(harness.now(), { empty: true }));
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    await harness.grantLock();
    expect(selectIsDataReady(harness.snapshot())).toBe(false);
    expect(selectIsFreshSync(harness.snapshot())).toBe(true);
    for (const _ of SYNC_TYPES) await harness.answerType(doneResult());
    expect(value(harness)).toEqual({ running: { syncing: 'purging' } });
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    expect(selectCurrentType(harness.snapshot())).toBeNull();
  });

  it.each([
    { name: 'the lock is held by another tab', fail: (harness: SyncHarness) => harness.denyLock() },
    { name: 'the lock request fails', fail: (harness: SyncHarness) => harness.failLock(new Error('aborted')) },
    {
      name: 'the worker call throws',
      fail: async (harness: SyncHarness) => {
        await harness.grantLock();
        await harness.answerType({ error: new Error('worker gone') });
      },
    },
    {
      name: 'the session is refused',
      fail: async (harness: SyncHarness) => {
        await harness.grantLock();
        await harness.answerType(failedResult('jwt expired', 'TokenExpired'));
      },
    },
  ])('is set again when a fresh sync fails: $name', async ({ fail }) => {
    const harness = createSyncHarness();
    await started(harness, storeStatus(harness.now(), { empty: true }));
    expect(selectIsDataReady(harness.snapshot())).toBe(false);
    await fail(harness);
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    expect(selectLastRound(harness.snapshot())).toMatchObject({ fresh: true });
    expect(selectLastRound(harness.snapshot())?.outcome).not.toBe('completed');
  });

  it('is set after a fresh sync in which every type failed: the round completes, with every error kept', async () => {
    const harness = createSyncHarness();
    await started(harness, storeStatus(harness.now(), { empty: true }));
    await harness.grantLock();
    for (const type of SYNC_TYPES) await harness.answerType(failedResult(`${type}: offline`));
    await harness.answerPurge({ purged: 0 });
    expect(selectIsDataReady(harness.snapshot())).toBe(true);
    expect(selectLastRound(harness.snapshot())).toMatchObject({ fresh: true, outcome: 'completed' });
    expect(selectLastErrors(harness.snapshot())).toEqual(
      Object.fromEntries(SYNC_TYPES.map((type) => [type, `${type}: offline`])),
    );
    expect(harness.logs.map((entry) => entry.stage)).toEqual([...SYNC_TYPES]);
  });
});

describe('syncMachine: results, errors and progress', () => {
  it('keeps progress per type for the round, and starts the next round from zero', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.progress(1, 2000);
    await harness.progress(2, 3500);
    await harness.answerType(doneResult(3500));
    await harness.progress(1, 10);
    expect(selectProgress(harness.snapshot())).toMatchObject({
      valid: { pagesDone: 2, recordsDone: 3500 },
      expired: { pagesDone: 1, recordsDone: 10 },
      spothero: { pagesDone: 0, recordsDone: 0 },
    });
    await finishRound(harness);
    await harness.send({ type: 'sync.requested' });
    await harness.answerStatus(storeStatus(harness.now()));
    await harness.grantLock();
    expect(selectProgress(harness.snapshot()).valid).toEqual({ pagesDone: 0, recordsDone: 0 });
  });

  it("clears a type's last error once it syncs without one", async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.answerType(failedResult('HTTP 502'));
    await finishRound(harness);
    expect(selectLastErrors(harness.snapshot())).toEqual({ valid: 'HTTP 502' });
    await harness.send({ type: 'sync.requested' });
    await harness.answerStatus(storeStatus(harness.now()));
    await harness.grantLock();
    await harness.answerType(doneResult());
    expect(selectLastErrors(harness.snapshot())).toEqual({});
  });

  it('a session error is logged and reported once, and nothing more runs until the session changes', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.answerType(doneResult());
    await harness.answerType(failedResult('jwt expired', 'TokenExpired'));
    expect(harness.sessionErrors).toEqual(['TokenExpired']);
    expect(harness.logs).toEqual([{ stage: 'expired', message: 'jwt expired' }]);
    expect(harness.worker.typeCalls.map((call) => call.request.type)).toEqual(['valid', 'expired']);
    expect(harness.worker.purgeCalls).toHaveLength(0);
    await harness.advance(STATUS_CHECK_INTERVAL_MS * 5);
    await harness.send({ type: 'sync.requested' });
    expect(harness.worker.statusCalls).toHaveLength(1);
    await harness.session('signedOut');
    await harness.session('A');
    expect(harness.worker.statusCalls).toHaveLength(2);
  });

  it('a session error field that is not a session error code is an ordinary sync error', async () => {
    const harness = createSyncHarness();
    await started(harness);
    await harness.grantLock();
    await harness.answerType(failedResult('HTTP 403', 'Forbidden'));
    expect(harness.sessionErrors).toEqual([]);
    expect(value(harness)).toEqual({ running: { syncing: { types: 'expired' } } });
  });
});

describe('isSyncDue', () => {
  const status = (ages: Array<number | null>, now: number) =>
    storeStatus(now, { ago: Object.fromEntries(SYNC_TYPES.map((type, i) => [type, ages[i] ?? null])) });
  const age = fc.integer({ min: 0, max: 3 * SYNC_STALE_AFTER_MS });
  const now = fc.integer({ min: START_TIME, max: START_TIME + 365 * 24 * 3600_000 });

  it('is due exactly when some type was never synced or was synced 15 or more minutes ago', () => {
    fc.assert(
      fc.property(fc.array(fc.option(age), { minLength: 5, maxLength: 5 }), now, (ages, at) => {
        const stale = ages.some((a) => a === null || a >= SYNC_STALE_AFTER_MS);
        expect(isSyncDue(status(ages, at), at)).toBe(stale);
      }),
    );
  });

  it('once due, stays due as time passes', () => {
    fc.assert(
      fc.property(fc.array(age, { minLength: 5, maxLength: 5 }), now, fc.nat(), (ages, at, later) => {
        fc.pre(isSyncDue(status(ages, at), at));
        expect(isSyncDue(status(ages, at), at + later)).toBe(true);
      }),
    );
  });

  it('counts a type the store does not list as never synced', () => {
    const at = START_TIME;
    const listed = storeStatus(at);
    expect(isSyncDue(listed, at)).toBe(false);
    expect(isSyncDue({ ...listed, types: listed.types.filter((t) => t.type !== 'parkwhiz') }, at)).toBe(true);
  });
});

describe('syncMachine: wiring', () => {
  it('names the implementation the app has not provided', async () => {
    const errors: unknown[] = [];
    const actor = createActor(syncMachine);
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    actor.send({ type: 'sync.sessionChanged', signedIn: true, locationIds: [1], apiBase: '/api' });
    await flush();
    // The check fails for want of checkStatus; logging that fails for want of logSyncError.
    expect(String(errors[0])).toContain("'logSyncError' has no implementation");
  });

  it('can be inspected: every state and event reaches the inspector', async () => {
    const events: InspectionEvent[] = [];
    const worker = createFakeWorker();
    const machine = syncMachine.provide(
      createSyncImplementations({
        worker: worker.remote,
        getIdToken: async () => null,
        getSessionToken: () => null,
        onSessionError: () => {},
        logSyncError: () => {},
        locks: new FakeLocks('auto'),
      }),
    );
    const actor = createActor(machine, { inspect: (event) => events.push(event) }).start();
    actor.send({ type: 'sync.sessionChanged', signedIn: true, locationIds: [1], apiBase: '/api' });
    expect(events.some((event) => event.type === '@xstate.event' && event.event.type === 'sync.sessionChanged')).toBe(
      true,
    );
    expect(events.filter((event) => event.type === '@xstate.actor').length).toBeGreaterThan(1);
    // The definition serialises, as the inspector needs it to draw the chart.
    expect(() => JSON.stringify(syncMachine.definition)).not.toThrow();
    expect(syncMachine.getStateNodeById(`sync.running.syncing.types.monthly_parkers`).key).toBe('monthly_parkers');
    expect(SYNC_LOCK_NAME).toBe('lpa.enforcement-sync');
    actor.stop();
  });
});
