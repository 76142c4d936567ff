import type { Remote } from 'comlink';
import { createActor, SimulatedClock, type AnyTransitionDefinition, type InspectionEvent } from 'xstate';
import { SYNC_TYPES, type SyncType } from '../../../../src/contract/enforcement';
import type { SessionErrorCode } from '../../../../src/contract/envelope';
import { createSyncImplementations, type SyncLocks } from '../../../../src/machines/sync/sync.actors';
import { syncMachine, type SyncEvent, type SyncStage } from '../../../../src/machines/sync/sync.machine';
import type {
  EnforcementWorkerApi,
  StoreStatus,
  SyncAuth,
  SyncProgress,
  SyncTypeRequest,
  SyncTypeResult,
} from '../../../../src/worker/enforcement-worker-api';
import { flush, type Deferred } from '../../../fixtures/auth-harness';

export const START_TIME = Date.UTC(2030, 0, 1, 9, 0, 0);
export const API_BASE = 'https://functions.example.test/api';
export const SESSION_TOKEN = 'lpa-session-token';
export const ID_TOKEN = 'firebase-id-token';

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type LockState = 'pending' | 'held' | 'released' | 'unavailable' | 'failed';

export interface FakeLockRequest {
  name: string;
  state: LockState;
  callback: (lock: Lock | null) => Promise<void>;
  settled: Deferred<void>;
}

/**
 * Web Locks for one browser, shared by the tabs (harnesses) given it. `auto` answers as the browser does
 * (`ifAvailable`: granted when free, null when held); `manual` leaves each request pending until the test answers it.
 */
export class FakeLocks implements SyncLocks {
  readonly requests: FakeLockRequest[] = [];
  /** When set, the next request throws synchronously (as a broken implementation would). */
  throwOnRequest: Error | null = null;
  private readonly elsewhere = new Set<string>();

  constructor(private readonly answering: 'auto' | 'manual' = 'auto') {}

  request(name: string, _options: { ifAvailable: true }, callback: (lock: Lock | null) => Promise<void>): Promise<void> {
    if (this.throwOnRequest) {
      const error = this.throwOnRequest;
      this.throwOnRequest = null;
      throw error;
    }
    const request: FakeLockRequest = { name, state: 'pending', callback, settled: deferred<void>() };
    this.requests.push(request);
    if (this.answering === 'auto') {
      queueMicrotask(() => (this.isHeld(name) ? this.deny(request) : this.grant(request)));
    }
    return request.settled.promise;
  }

  isHeld(name: string): boolean {
    return this.elsewhere.has(name) || this.requests.some((r) => r.name === name && r.state === 'held');
  }

  /** Requests currently holding a lock. */
  held(): FakeLockRequest[] {
    return this.requests.filter((r) => r.state === 'held');
  }

  pending(): FakeLockRequest | undefined {
    return this.requests.filter((r) => r.state === 'pending').at(-1);
  }

  grant(request = this.latestPending()) {
    if (this.isHeld(request.name)) throw new Error(`lock ${request.name} is already held`);
    request.state = 'held';
    request.callback({ name: request.name, mode: 'exclusive' }).then(
      () => {
        request.state = 'released';
        request.settled.resolve();
      },
      (error: unknown) => {
        request.state = 'released';
        request.settled.reject(error);
      },
    );
  }

  deny(request = this.latestPending()) {
    request.state = 'unavailable';
    request.callback(null).then(() => request.settled.resolve(), request.settled.reject);
  }

  fail(error: Error, request = this.latestPending()) {
    request.state = 'failed';
    request.settled.reject(error);
  }

  /** Another tab takes the lock; returns its release. */
  holdElsewhere(name: string): () => void {
    this.elsewhere.add(name);
    return () => this.elsewhere.delete(name);
  }

  private latestPending(): FakeLockRequest {
    const request = this.pending();
    if (!request) throw new Error('no lock request is pending');
    return request;
  }
}

export interface TypeCall extends Deferred<SyncTypeResult> {
  request: SyncTypeRequest;
  auth: SyncAuth;
  onProgress: (progress: SyncProgress) => void;
}

/** The enforcement worker as the page sees it, answering each call only when the test says. */
export function createFakeWorker() {
  const statusCalls: Array<Deferred<StoreStatus>> = [];
  const typeCalls: TypeCall[] = [];
  const purgeCalls: Array<{ now: number } & Deferred<{ purged: number }>> = [];
  const api: EnforcementWorkerApi = {
    open: () => Promise.reject(new Error('open is not part of the sync')),
    status: () => {
      const call = deferred<StoreStatus>();
      statusCalls.push(call);
      return call.promise;
    },
    syncType: (request, auth, onProgress) => {
      const call = { request, auth, onProgress, ...deferred<SyncTypeResult>() };
      typeCalls.push(call);
      return call.promise;
    },
    purge: (now) => {
      const call = { now, ...deferred<{ purged: number }>() };
      purgeCalls.push(call);
      return call.promise;
    },
    search: () => Promise.reject(new Error('search is not part of the sync')),
    searchAhead: () => Promise.reject(new Error('searchAhead is not part of the sync')),
    clear: () => Promise.reject(new Error('clear is not part of the sync')),
  };
  // Called in the same thread, the plain object behaves as its Comlink remote does for these calls.
  return { remote: api as unknown as Remote<EnforcementWorkerApi>, statusCalls, typeCalls, purgeCalls };
}

/** Minutes and seconds as milliseconds. */
export const minutes = (m: number, s = 0) => (m * 60 + s) * 1000;

/**
 * A store status as of `now`: each type last synced `ago` ms before it (null: never); types not given were synced
 * a minute ago.
 */
export function storeStatus(
  now: number,
  options: { empty?: boolean; available?: boolean; ago?: Partial<Record<SyncType, number | null>> } = {},
): StoreStatus {
  const { empty = false, available = true, ago = {} } = options;
  return {
    available,
    reason: available ? null : 'IndexedDB is not available in this browser',
    empty,
    types: empty
      ? []
      : SYNC_TYPES.map((type) => {
          const age = type in ago ? ago[type] : minutes(1);
          return { type, lastSync: age === null || age === undefined ? null : now - age, totalRecords: 10, latestUpdatedAt: null };
        }),
    storage: { usageBytes: null, quotaBytes: null, persisted: null },
  };
}

export const doneResult = (records = 3): SyncTypeResult => ({ outcome: 'done', pages: 1, records, stoppedBy: 'shortPage' });
export const skippedResult: SyncTypeResult = { outcome: 'skipped', reason: 'monthlyParkersUpdatedToday' };
export const failedResult = (message: string, sessionError: string | null = null): SyncTypeResult => ({
  outcome: 'failed',
  pages: 0,
  records: 0,
  message,
  sessionError,
});

export const SESSIONS = {
  A: { signedIn: true, locationIds: [7, 3, 7], apiBase: API_BASE },
  B: { signedIn: true, locationIds: [12], apiBase: API_BASE },
  noLocations: { signedIn: true, locationIds: [], apiBase: API_BASE },
  signedOut: { signedIn: false, locationIds: [], apiBase: API_BASE },
} as const;
export type SessionKey = keyof typeof SESSIONS;
/** The location ids the machine syncs for a session: each once, in order. */
export const syncedLocations = (key: SessionKey) => [...new Set(SESSIONS[key].locationIds)].sort((a, b) => a - b);

/**
 * `syncMachine` with its real implementations (sync.actors.ts) over a fake worker and fake Web Locks, a
 * SimulatedClock that is also the wall clock the actors read, and recorded logs and session errors.
 */
export function createSyncHarness(
  options: {
    locks?: FakeLocks;
    onTransition?: (transition: AnyTransitionDefinition) => void;
  } = {},
) {
  const clock = new SimulatedClock();
  const now = () => START_TIME + clock.now();
  const locks = options.locks ?? new FakeLocks('manual');
  const worker = createFakeWorker();
  const logs: Array<{ stage: SyncStage; message: string }> = [];
  const sessionErrors: SessionErrorCode[] = [];

  const machine = syncMachine.provide(
    createSyncImplementations({
      worker: worker.remote,
      getIdToken: async () => ID_TOKEN,
      getSessionToken: () => SESSION_TOKEN,
      onSessionError: (code) => sessionErrors.push(code),
      logSyncError: (entry) => logs.push(entry),
      locks,
      now,
    }),
  );
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.microstep') event._transitions.forEach((t) => options.onTransition?.(t));
  };
  const actor = createActor(machine, { clock, inspect }).start();

  function latest<T>(calls: T[], name: string): T {
    const call = calls.at(-1);
    if (!call) throw new Error(`${name} was not called`);
    return call;
  }

  return {
    actor,
    clock,
    locks,
    worker,
    logs,
    sessionErrors,
    now,
    snapshot: () => actor.getSnapshot(),
    async send(event: SyncEvent) {
      actor.send(event);
      await flush();
    },
    async session(key: SessionKey) {
      actor.send({ type: 'sync.sessionChanged', ...SESSIONS[key], locationIds: [...SESSIONS[key].locationIds] });
      await flush();
    },
    async answerStatus(status: StoreStatus | { error: Error }) {
      const call = latest(worker.statusCalls, 'status');
      if ('error' in status) call.reject(status.error);
      else call.resolve(status);
      await flush();
    },
    async answerType(result: SyncTypeResult | { error: Error }) {
      const call = latest(worker.typeCalls, 'syncType');
      if ('error' in result) call.reject(result.error);
      else call.resolve(result);
      await flush();
    },
    async progress(pagesDone: number, recordsDone: number) {
      const call = latest(worker.typeCalls, 'syncType');
      call.onProgress({ type: call.request.type, pagesDone, recordsDone });
      await flush();
    },
    async answerPurge(result: { purged: number } | { error: Error }) {
      const call = latest(worker.purgeCalls, 'purge');
      if ('error' in result) call.reject(result.error);
      else call.resolve(result);
      await flush();
    },
    async grantLock() {
      locks.grant();
      await flush();
    },
    async denyLock() {
      locks.deny();
      await flush();
    },
    async failLock(error: Error) {
      locks.fail(error);
      await flush();
    },
    /** Moves the machine's clock (and so the wall clock the actors read) forward. */
    async advance(ms: number) {
      clock.increment(ms);
      await flush();
    },
  };
}

export type SyncHarness = ReturnType<typeof createSyncHarness>;
