import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup, waitFor, type AnyActorLogic, type EventObject } from 'xstate';
import { SYNC_TYPES } from '../../contract/enforcement';
import { createSyncActions, createSyncActors, createSyncImplementations } from './sync.actors';
import {
  selectLastErrors,
  selectProgress,
  SYNC_LOCK_NAME,
  syncMachine,
  type SyncEvent,
} from './sync.machine';
import type {
  EnforcementWorkerApi,
  SyncAuth,
  SyncProgress,
  SyncTypeRequest,
} from '../../worker/enforcement-worker-api';
import { flush } from '../../../test/fixtures/auth-harness';
import { createFakeWorker, doneResult, failedResult, FakeLocks, START_TIME, storeStatus } from '../../../test/fixtures/sync-harness';

const noWorker = createFakeWorker().remote;
const deps = { worker: noWorker, getIdToken: async () => 'id-token', getSessionToken: () => 'lpa-token' };

/** Runs `logic` invoked by a parent that records what it sends back; `leave` stops it. */
function invokeRecorded(logic: AnyActorLogic, input: unknown) {
  const received: EventObject[] = [];
  const parent = setup({ actors: { logic } }).createMachine({
    initial: 'running',
    states: {
      running: {
        invoke: { src: 'logic', input },
        on: { leave: 'left', '*': { actions: ({ event }) => received.push(event) } },
      },
      left: {},
    },
  });
  const actor = createActor(parent).start();
  return { received, leave: () => actor.send({ type: 'leave' }), actor };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a whole round over Comlink', () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const { port1, port2 } of channels.splice(0)) {
      port1.close();
      port2.close();
    }
  });

  it('passes requests, auth and progress across, and purges with the round\'s clock', async () => {
    const NOW = START_TIME + 42_000;
    const seen: Array<{ request: SyncTypeRequest; idToken: string | null; sessionToken: string | null }> = [];
    const purges: number[] = [];
    // The worker side: what enforcement.worker.ts exposes, here answering from memory.
    const workerApi: EnforcementWorkerApi = {
      open: async () => storeStatus(NOW, { empty: true }),
      status: async () => storeStatus(NOW, { empty: true }),
      syncType: async (request, auth, onProgress) => {
        // Across Comlink these are proxies: a property read is a promise, and each proxy is released after use.
        const remoteAuth = auth as unknown as Comlink.Remote<SyncAuth>;
        const remoteProgress = onProgress as unknown as Comlink.Remote<(progress: SyncProgress) => void>;
        const idToken = await remoteAuth.getIdToken();
        const sessionToken = await remoteAuth.sessionToken;
        seen.push({ request, idToken, sessionToken });
        await remoteProgress({ type: request.type, pagesDone: 1, recordsDone: 2000 });
        remoteAuth[Comlink.releaseProxy]();
        remoteProgress[Comlink.releaseProxy]();
        return request.type === 'spothero' ? failedResult('HTTP 503') : doneResult(2000);
      },
      purge: async (now) => {
        purges.push(now);
        return { purged: 2 };
      },
      search: async () => {
        throw new Error('not used');
      },
      searchAhead: async () => {
        throw new Error('not used');
      },
      clear: async () => {},
    };
    const channel = new MessageChannel();
    channels.push(channel);
    Comlink.expose(workerApi, channel.port1);
    const worker = Comlink.wrap<EnforcementWorkerApi>(channel.port2);

    const logs: unknown[] = [];
    const locks = new FakeLocks('auto');
    const machine = syncMachine.provide(
      createSyncImplementations({
        worker,
        getIdToken: async () => 'id-token',
        getSessionToken: () => 'lpa-token',
        onSessionError: () => {},
        logSyncError: (entry) => logs.push(entry),
        locks,
        now: () => NOW,
      }),
    );
    const actor = createActor(machine).start();
    actor.send({ type: 'sync.sessionChanged', signedIn: true, locationIds: [5, 2], apiBase: '/api' });
    const snapshot = await waitFor(actor, (s) => s.context.lastRound !== null, { timeout: 5_000 });

    expect(snapshot.value).toEqual({ running: 'waiting' });
    expect(seen).toEqual(
      SYNC_TYPES.map((type) => ({
        request: { type, apiBase: '/api', locationIds: [2, 5], now: NOW },
        idToken: 'id-token',
        sessionToken: 'lpa-token',
      })),
    );
    expect(Object.values(selectProgress(snapshot))).toEqual(SYNC_TYPES.map(() => ({ pagesDone: 1, recordsDone: 2000 })));
    expect(selectLastErrors(snapshot)).toEqual({ spothero: 'HTTP 503' });
    expect(logs).toEqual([{ stage: 'spothero', message: 'HTTP 503' }]);
    expect(purges).toEqual([NOW]);
    expect(snapshot.context.lastRound).toEqual({ at: NOW, fresh: true, outcome: 'completed' });
    expect(snapshot.context.dataReady).toBe(true);
    await flush();
    expect(locks.held()).toEqual([]);
    expect(locks.requests.map((request) => request.name)).toEqual([SYNC_LOCK_NAME]);
    actor.stop();
  });
});

describe('checkStatus', () => {
  it('reads the status and the wall clock', async () => {
    const worker = createFakeWorker();
    const { checkStatus } = createSyncActors({ ...deps, worker: worker.remote, now: () => 1234 });
    const actor = createActor(checkStatus).start();
    const status = storeStatus(1234);
    worker.statusCalls[0]?.resolve(status);
    await flush();
    expect(actor.getSnapshot().output).toEqual({ status, now: 1234 });
  });
});

describe('syncType', () => {
  it('reports a rejected worker call as sync.typeError with its message', async () => {
    const worker = createFakeWorker();
    const { syncType } = createSyncActors({ ...deps, worker: worker.remote });
    const { received } = invokeRecorded(syncType, { type: 'parkwhiz', apiBase: '/api', locationIds: [1], now: 0 });
    worker.typeCalls[0]?.reject(new Error('Worker terminated'));
    await flush();
    expect(received).toContainEqual({ type: 'sync.typeError', dataType: 'parkwhiz', message: 'Worker terminated' } satisfies SyncEvent);
  });

  it('reads the session token when the type starts, and drops what arrives once stopped', async () => {
    const worker = createFakeWorker();
    let token = 'first';
    const { syncType } = createSyncActors({ ...deps, worker: worker.remote, getSessionToken: () => token });
    const { received, leave } = invokeRecorded(syncType, { type: 'valid', apiBase: '/api', locationIds: [1], now: 0 });
    token = 'second';
    const call = worker.typeCalls[0];
    expect(call?.auth.sessionToken).toBe('first');
    await expect(call?.auth.getIdToken()).resolves.toBe('id-token');
    call?.onProgress({ type: 'valid', pagesDone: 1, recordsDone: 2000 });
    leave();
    call?.onProgress({ type: 'valid', pagesDone: 2, recordsDone: 4000 });
    call?.resolve(doneResult());
    await flush();
    expect(received.filter((event) => event.type.startsWith('sync.'))).toEqual([
      { type: 'sync.progress', progress: { type: 'valid', pagesDone: 1, recordsDone: 2000 } },
    ]);
  });
});

describe('purge', () => {
  it('purges with the given clock', async () => {
    const worker = createFakeWorker();
    const { purge } = createSyncActors({ ...deps, worker: worker.remote });
    createActor(purge, { input: { now: 99 } }).start();
    expect(worker.purgeCalls.map((call) => call.now)).toEqual([99]);
  });
});

describe('acquireSyncLock', () => {
  const input = { name: SYNC_LOCK_NAME };

  it('holds the lock until stopped', async () => {
    const locks = new FakeLocks('auto');
    const { acquireSyncLock } = createSyncActors({ ...deps, locks });
    const { received, leave } = invokeRecorded(acquireSyncLock, input);
    await flush();
    expect(received).toContainEqual({ type: 'sync.lockAcquired' });
    expect(locks.held()).toHaveLength(1);
    leave();
    await flush();
    expect(locks.held()).toEqual([]);
  });

  it('reports the lock held elsewhere as unavailable, without waiting for it', async () => {
    const locks = new FakeLocks('auto');
    locks.holdElsewhere(SYNC_LOCK_NAME);
    const { acquireSyncLock } = createSyncActors({ ...deps, locks });
    const { received } = invokeRecorded(acquireSyncLock, input);
    await flush();
    expect(received).toContainEqual({ type: 'sync.lockUnavailable' });
    expect(locks.requests[0]?.state).toBe('unavailable');
  });

  it('reports a failed lock request', async () => {
    const locks = new FakeLocks('manual');
    const { acquireSyncLock } = createSyncActors({ ...deps, locks });
    const { received } = invokeRecorded(acquireSyncLock, input);
    locks.fail(new DOMException('The request was aborted', 'AbortError'));
    await flush();
    expect(received).toContainEqual({ type: 'sync.lockFailed', message: 'The request was aborted' });
  });

  it('without Web Locks, syncs as the only tab it can see', async () => {
    const { acquireSyncLock } = createSyncActors({ ...deps, locks: null });
    const { received } = invokeRecorded(acquireSyncLock, input);
    await flush();
    expect(received).toContainEqual({ type: 'sync.lockAcquired' });
  });

  it('uses navigator.locks by default', async () => {
    const locks = new FakeLocks('auto');
    vi.stubGlobal('navigator', { locks });
    const { acquireSyncLock } = createSyncActors(deps);
    invokeRecorded(acquireSyncLock, input);
    await flush();
    expect(locks.held()).toHaveLength(1);
  });
});

describe('createSyncActions', () => {
  it('logs sync errors to the console by default', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    createSyncActions({ onSessionError: () => {} }).logSyncError(undefined, { stage: 'expired', message: 'HTTP 500' });
    expect(error).toHaveBeenCalledWith('Enforcement sync failed (expired): HTTP 500');
  });

  it('reports a session error to the app', () => {
    const onSessionError = vi.fn();
    createSyncActions({ onSessionError }).reportSessionError(undefined, { code: 'NoTokenProvided' });
    expect(onSessionError).toHaveBeenCalledWith('NoTokenProvided');
  });
});
