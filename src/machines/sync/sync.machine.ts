import { assertEvent, assign, fromCallback, fromPromise, setup, type ActorRefFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { SYNC_TYPES, type SyncType } from '../../contract/enforcement';
import { isSessionErrorCode, type SessionErrorCode } from '../../contract/envelope';
import type { StoreStatus, SyncProgress, SyncTypeRequest, SyncTypeResult } from '../../worker/enforcement-worker-api';

/** A sync-status check runs this long after the last check or sync ended (spec §4, §9: 3 minutes). */
export const STATUS_CHECK_INTERVAL_MS = 3 * 60_000;
/** A data type last synced this long ago or longer needs a sync (spec §4, §9: 15 minutes). */
export const SYNC_STALE_AFTER_MS = 15 * 60_000;
/** The Web Lock that lets one tab of the browser sync at a time. */
export const SYNC_LOCK_NAME = 'lpa.enforcement-sync';

/** What `checkStatus` reports: the store's status and the wall clock it was read at, which the round then uses. */
export interface StatusCheck {
  status: StoreStatus;
  /** Epoch ms; the staleness decision, every syncType request and the purge of the round use it. */
  now: number;
}

export interface SyncSession {
  signedIn: boolean;
  /** The signed-in user's enforcement locations; none means nothing to sync. */
  locationIds: number[];
  apiBase: string;
}

export interface TypeProgress {
  pagesDone: number;
  recordsDone: number;
}

/** Where a logged sync error happened: a data type, or a step around them. */
export type SyncStage = SyncType | 'status' | 'lock' | 'purge';

/**
 * How a sync round ended. `completed`: every type ran (each done, skipped or failed) and the purge ran.
 * `lockUnavailable`: another tab was syncing, so this tab skipped the round. `failed`: the round ended before every
 * type ran (the lock could not be requested, or the worker call itself threw). `sessionError`: the server refused the
 * session.
 */
export type RoundOutcome = 'completed' | 'lockUnavailable' | 'failed' | 'sessionError';

export interface SyncRound {
  /** The `now` of the round's status check. */
  at: number;
  fresh: boolean;
  outcome: RoundOutcome;
}

export type SyncEvent =
  /** Sent by the app whenever sign-in state, the user's enforcement locations or the API base change. */
  | ({ type: 'sync.sessionChanged' } & SyncSession)
  /** "Sync now": check at once and sync even when nothing is stale. Ignored while a sync runs. */
  | { type: 'sync.requested' }
  // Sent back by `acquireSyncLock`.
  | { type: 'sync.lockAcquired' }
  | { type: 'sync.lockUnavailable' }
  | { type: 'sync.lockFailed'; message: string }
  // Sent back by `syncType`.
  | { type: 'sync.progress'; progress: SyncProgress }
  | { type: 'sync.typeResult'; dataType: SyncType; result: SyncTypeResult }
  /** The worker call itself rejected (worker or transport broken), as opposed to a sync error it reported. */
  | { type: 'sync.typeError'; dataType: SyncType; message: string };

export interface SyncContext {
  session: SyncSession | null;
  /** False until the first status check of a session and while a fresh sync runs (spec §4). */
  dataReady: boolean;
  /** Whether the current (or last) round is a fresh full sync of an empty store. */
  fresh: boolean;
  /** A "Sync now" arrived before or during the status check in progress. */
  syncRequested: boolean;
  /** The `now` of the latest status check. */
  checkedAt: number | null;
  /** Why the store cannot be used (no IndexedDB), as the latest status check said; null when it can. */
  unavailableReason: string | null;
  /** The type being synced, for the UI; null between syncs. */
  currentType: SyncType | null;
  /** Per type, how far the current (or last) round got. */
  progress: Record<SyncType, TypeProgress>;
  /** Per type, the result of its latest sync. */
  results: Partial<Record<SyncType, SyncTypeResult>>;
  /** Per type, the message of its latest failure; cleared when the type next syncs without one. */
  lastErrors: Partial<Record<SyncType, string>>;
  lastRound: SyncRound | null;
}

export type SyncTag = 'stopped' | 'checking' | 'syncing';

export interface SyncLockInput {
  name: string;
}

export interface PurgeInput {
  now: number;
}

function notProvided(name: string): never {
  throw new Error(`syncMachine: '${name}' has no implementation; supply it with syncMachine.provide()`);
}

/** The message of an error or rejection value, for the sync log. */
export function syncErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'Unknown error';
}

/** Whether any data type was last synced 15 or more minutes before `now`; never synced (or unlisted) counts as stale. */
export function isSyncDue(status: StoreStatus, now: number): boolean {
  return SYNC_TYPES.some((type) => {
    const lastSync = status.types.find((entry) => entry.type === type)?.lastSync ?? null;
    return lastSync === null || now - lastSync >= SYNC_STALE_AFTER_MS;
  });
}

function sessionOf(event: Extract<SyncEvent, { type: 'sync.sessionChanged' }>): SyncSession {
  return {
    signedIn: event.signedIn,
    locationIds: [...new Set(event.locationIds)].sort((a, b) => a - b),
    apiBase: event.apiBase,
  };
}

function sameSession(a: SyncSession | null, b: SyncSession): boolean {
  return (
    a !== null &&
    a.signedIn === b.signedIn &&
    a.apiBase === b.apiBase &&
    a.locationIds.length === b.locationIds.length &&
    a.locationIds.every((id, i) => id === b.locationIds[i])
  );
}

function syncTypeRequest(context: SyncContext, type: SyncType): SyncTypeRequest {
  return {
    type,
    apiBase: context.session?.apiBase ?? '',
    locationIds: context.session?.locationIds ?? [],
    now: context.checkedAt ?? 0,
  };
}

const noProgress = () =>
  Object.fromEntries(SYNC_TYPES.map((type) => [type, { pagesDone: 0, recordsDone: 0 }])) as Record<SyncType, TypeProgress>;

/** The params of the guards and actions that read the status check's output. */
const checkOf = ({ event }: { event: { output: StatusCheck } }) => ({ check: event.output });

function initialContext(session: SyncSession | null = null): SyncContext {
  return {
    session,
    dataReady: false,
    fresh: false,
    syncRequested: false,
    checkedAt: null,
    unavailableReason: null,
    currentType: null,
    progress: noProgress(),
    results: {},
    lastErrors: {},
    lastRound: null,
  };
}

const isFailure = (result: SyncTypeResult): result is Extract<SyncTypeResult, { outcome: 'failed' }> =>
  result.outcome === 'failed';
const rejectsSession = (result: SyncTypeResult): boolean =>
  isFailure(result) && isSessionErrorCode(result.sessionError);

/** The session error code of a result that `resultRejectsSession` let through. */
function rejectedSessionCode(event: SyncEvent): SessionErrorCode {
  assertEvent(event, 'sync.typeResult');
  const { result } = event;
  if (isFailure(result) && isSessionErrorCode(result.sessionError)) return result.sessionError;
  throw new Error('syncMachine: this sync result carries no session error');
}

/** The log entry of a failed type result. */
function typeFailureLog(event: SyncEvent): { stage: SyncStage; message: string } {
  assertEvent(event, 'sync.typeResult');
  return { stage: event.dataType, message: isFailure(event.result) ? event.result.message : '' };
}

/**
 * The state of one data type: it becomes the current type and is synced; done, skipped (monthly parkers updated
 * today) and failed (logged, spec §8) all go on to `next`. A session error is handled by the parent `types` state.
 */
function typeStep(dataType: SyncType, next: string) {
  return {
    entry: { type: 'startType', params: { dataType } },
    invoke: { src: 'syncType', input: ({ context }: { context: SyncContext }) => syncTypeRequest(context, dataType) },
    on: {
      'sync.typeResult': [
        { guard: 'resultCompleted', target: next, actions: 'recordTypeResult' },
        {
          guard: 'resultFailed',
          target: next,
          actions: [
            'recordTypeResult',
            { type: 'logSyncError', params: ({ event }: { event: SyncEvent }) => typeFailureLog(event) },
          ],
        },
      ],
    },
  } as const;
}

/**
 * Enforcement sync, page side (spec §4, §8, §9). Pure: the worker, Comlink, Web Locks and logging come in through
 * `.provide` (see sync.actors.ts). The app sends `sync.sessionChanged`; the machine checks the store at once and every
 * 3 minutes, and syncs the five data types in order while holding a Web Lock shared by every tab. The lock is invoked
 * by `syncing`, so leaving that state in any way (done, failure, sign-out, a change of locations, stop) releases it.
 *
 * Choices the spec leaves open:
 * - "Now" is the clock reading `checkStatus` returns with the status; the staleness decision, every request of the
 *   round and the purge use it, so a simulated clock drives them all.
 * - The next check comes 3 minutes after the last check or sync ended (a sync never overlaps a check).
 * - "Sync now" (`sync.requested`) while waiting checks at once and syncs even if nothing is stale; during a check it
 *   makes that check sync; during a sync it is dropped, since the sync under way brings every type up to date.
 * - The data-ready flag starts false (nothing known yet), is set by the first check unless a fresh sync is needed,
 *   is cleared only once a fresh sync holds the lock, and is set again however a sync ends. A fresh sync "fails"
 *   when it ends before every type ran: another tab holds the lock, the lock request fails, the worker call throws
 *   (the worker or transport is broken, so the round stops), or the session is refused. A round in which types
 *   reported sync errors still completes: they are logged, kept in `lastErrors`, and the purge runs.
 * - After a session error nothing runs until the session changes (the app signs the user out).
 */
export const syncMachine = setup({
  types: {
    context: {} as SyncContext,
    events: {} as SyncEvent,
    tags: {} as SyncTag,
  },
  actors: {
    checkStatus: fromPromise<StatusCheck>(async () => notProvided('checkStatus')),
    /** Holds the lock until stopped; sends back sync.lockAcquired, sync.lockUnavailable or sync.lockFailed. */
    acquireSyncLock: fromCallback<EventObject, SyncLockInput>(() => notProvided('acquireSyncLock')),
    /** Sends back sync.progress events, then sync.typeResult or sync.typeError. */
    syncType: fromCallback<EventObject, SyncTypeRequest>(() => notProvided('syncType')),
    purge: fromPromise<{ purged: number }, PurgeInput>(async () => notProvided('purge')),
  },
  actions: {
    recordSession: assign(({ event }) => {
      assertEvent(event, 'sync.sessionChanged');
      return { session: sessionOf(event) };
    }),
    /** A new user (or none) starts with nothing of the previous one's sync. */
    resetSyncState: assign(({ context }) => initialContext(context.session)),
    recordCheck: assign((_, params: { check: StatusCheck }) => ({
      checkedAt: params.check.now,
      fresh: params.check.status.empty,
      unavailableReason: params.check.status.available ? null : params.check.status.reason || 'Local storage is unavailable',
    })),
    recordSyncRequest: assign({ syncRequested: true }),
    clearSyncRequest: assign({ syncRequested: false }),
    markDataReady: assign({ dataReady: true }),
    /** During a required sync the data-ready flag is cleared only for a fresh sync (spec §4). */
    clearDataReadyIfFresh: assign(({ context }) => ({ dataReady: context.dataReady && !context.fresh })),
    resetProgress: assign({ progress: noProgress }),
    startType: assign((_, params: { dataType: SyncType }) => ({ currentType: params.dataType })),
    clearCurrentType: assign({ currentType: null }),
    recordProgress: assign(({ context, event }) => {
      assertEvent(event, 'sync.progress');
      const { type, pagesDone, recordsDone } = event.progress;
      return { progress: { ...context.progress, [type]: { pagesDone, recordsDone } } };
    }),
    recordTypeResult: assign(({ context, event }) => {
      assertEvent(event, 'sync.typeResult');
      const { [event.dataType]: _previous, ...otherErrors } = context.lastErrors;
      return {
        results: { ...context.results, [event.dataType]: event.result },
        lastErrors: isFailure(event.result) ? { ...otherErrors, [event.dataType]: event.result.message } : otherErrors,
      };
    }),
    recordTypeError: assign(({ context, event }) => {
      assertEvent(event, 'sync.typeError');
      return { lastErrors: { ...context.lastErrors, [event.dataType]: event.message } };
    }),
    recordRound: assign(({ context }, params: { outcome: RoundOutcome }) => ({
      lastRound: { at: context.checkedAt ?? 0, fresh: context.fresh, outcome: params.outcome },
    })),
    // Side effects, implemented by the app (sync.actors.ts).
    /** Sync errors are logged only (spec §8). */
    logSyncError: (_, _params: { stage: SyncStage; message: string }) => notProvided('logSyncError'),
    /** The server refused the session: the app signs the user out (spec §8). */
    reportSessionError: (_, _params: { code: SessionErrorCode }) => notProvided('reportSessionError'),
  },
  guards: {
    sessionUnchanged: ({ context, event }) =>
      event.type === 'sync.sessionChanged' && sameSession(context.session, sessionOf(event)),
    sessionAllowsSync: ({ event }) =>
      event.type === 'sync.sessionChanged' && event.signedIn && event.locationIds.length > 0,
    storeUnavailable: (_, params: { check: StatusCheck }) => !params.check.status.available,
    storeEmpty: (_, params: { check: StatusCheck }) => params.check.status.empty,
    syncDue: ({ context }, params: { check: StatusCheck }) =>
      context.syncRequested || isSyncDue(params.check.status, params.check.now),
    /** Done, or skipped (monthly parkers updated today): go on with the next type. */
    resultCompleted: ({ event }) => event.type === 'sync.typeResult' && !isFailure(event.result),
    /** A sync error stops that type only (spec §8). */
    resultFailed: ({ event }) =>
      event.type === 'sync.typeResult' && isFailure(event.result) && !rejectsSession(event.result),
    resultRejectsSession: ({ event }) => event.type === 'sync.typeResult' && rejectsSession(event.result),
  },
  delays: {
    statusCheckInterval: STATUS_CHECK_INTERVAL_MS,
  },
}).createMachine({
  id: 'sync',
  context: initialContext(),
  initial: 'idle',
  on: {
    'sync.sessionChanged': [
      // e.g. a token refresh reported the same user and locations: nothing to restart.
      { guard: 'sessionUnchanged' },
      // A new user or a change of locations restarts the checks (and stops a sync in progress).
      { guard: 'sessionAllowsSync', target: '.running', reenter: true, actions: 'recordSession' },
      { target: '.idle', actions: 'recordSession' },
    ],
  },
  states: {
    /** Signed out, or no enforcement locations: nothing runs. */
    idle: {
      tags: 'stopped',
      entry: 'resetSyncState',
    },
    running: {
      initial: 'checking',
      states: {
        checking: {
          tags: 'checking',
          exit: 'clearSyncRequest',
          invoke: {
            src: 'checkStatus',
            onDone: [
              // Lookups return empty results without IndexedDB (spec §8); there is nothing to sync into.
              {
                guard: { type: 'storeUnavailable', params: checkOf },
                target: 'waiting',
                actions: [{ type: 'recordCheck', params: checkOf }, 'markDataReady'],
              },
              {
                guard: { type: 'storeEmpty', params: checkOf },
                target: 'syncing',
                actions: { type: 'recordCheck', params: checkOf },
              },
              {
                guard: { type: 'syncDue', params: checkOf },
                target: 'syncing',
                actions: [{ type: 'recordCheck', params: checkOf }, 'markDataReady'],
              },
              {
                target: 'waiting',
                actions: [{ type: 'recordCheck', params: checkOf }, 'markDataReady'],
              },
            ],
            onError: {
              target: 'waiting',
              actions: [
                { type: 'logSyncError', params: ({ event }) => ({ stage: 'status', message: syncErrorMessage(event.error) }) },
                'markDataReady',
              ],
            },
          },
          on: {
            'sync.requested': { actions: 'recordSyncRequest' },
          },
        },
        waiting: {
          after: { statusCheckInterval: 'checking' },
          on: {
            'sync.requested': { target: 'checking', actions: 'recordSyncRequest' },
          },
        },
        /**
         * One sync round. Only one runs at a time: in this tab because it is one state ("Sync now" is not handled
         * here, so it is dropped), across tabs by the Web Lock invoked here and held until the state is left.
         */
        syncing: {
          tags: 'syncing',
          // However the round ends, the data is ready again (spec §4: also when a fresh sync fails).
          exit: ['markDataReady', 'clearCurrentType'],
          invoke: {
            id: 'syncLock',
            src: 'acquireSyncLock',
            input: { name: SYNC_LOCK_NAME },
            onError: {
              target: 'waiting',
              actions: [
                { type: 'logSyncError', params: ({ event }) => ({ stage: 'lock', message: syncErrorMessage(event.error) }) },
                { type: 'recordRound', params: { outcome: 'failed' } },
              ],
            },
          },
          initial: 'acquiringLock',
          states: {
            acquiringLock: {
              on: {
                'sync.lockAcquired': 'types',
                // Another tab is syncing: skip this round and wait for the next check.
                'sync.lockUnavailable': {
                  target: '#sync.running.waiting',
                  actions: { type: 'recordRound', params: { outcome: 'lockUnavailable' } },
                },
                'sync.lockFailed': {
                  target: '#sync.running.waiting',
                  actions: [
                    { type: 'logSyncError', params: ({ event }) => ({ stage: 'lock', message: event.message }) },
                    { type: 'recordRound', params: { outcome: 'failed' } },
                  ],
                },
              },
            },
            /** The data types in order (spec §4), one state each. */
            types: {
              entry: ['resetProgress', 'clearDataReadyIfFresh'],
              initial: 'valid',
              on: {
                'sync.progress': { actions: 'recordProgress' },
                'sync.typeResult': {
                  guard: 'resultRejectsSession',
                  target: '#sync.running.sessionRejected',
                  actions: [
                    'recordTypeResult',
                    { type: 'logSyncError', params: ({ event }) => typeFailureLog(event) },
                    { type: 'reportSessionError', params: ({ event }) => ({ code: rejectedSessionCode(event) }) },
                    { type: 'recordRound', params: { outcome: 'sessionError' } },
                  ],
                },
                'sync.typeError': {
                  target: '#sync.running.waiting',
                  actions: [
                    'recordTypeError',
                    { type: 'logSyncError', params: ({ event }) => ({ stage: event.dataType, message: event.message }) },
                    { type: 'recordRound', params: { outcome: 'failed' } },
                  ],
                },
              },
              states: {
                valid: typeStep('valid', 'expired'),
                expired: typeStep('expired', 'spothero'),
                spothero: typeStep('spothero', 'parkwhiz'),
                parkwhiz: typeStep('parkwhiz', 'monthly_parkers'),
                monthly_parkers: typeStep('monthly_parkers', '#sync.running.syncing.purging'),
              },
            },
            /** All types finished: data ready, no type in progress, then old records purged (spec §4). */
            purging: {
              entry: ['markDataReady', 'clearCurrentType'],
              invoke: {
                src: 'purge',
                input: ({ context }) => ({ now: context.checkedAt ?? 0 }),
                onDone: {
                  target: '#sync.running.waiting',
                  actions: { type: 'recordRound', params: { outcome: 'completed' } },
                },
                onError: {
                  target: '#sync.running.waiting',
                  actions: [
                    { type: 'logSyncError', params: ({ event }) => ({ stage: 'purge', message: syncErrorMessage(event.error) }) },
                    { type: 'recordRound', params: { outcome: 'completed' } },
                  ],
                },
              },
            },
          },
        },
        /** The server refused the session; the app signs the user out, which ends this with `sync.sessionChanged`. */
        sessionRejected: {},
      },
    },
  },
});

export type SyncActorRef = ActorRefFrom<typeof syncMachine>;
export type SyncSnapshot = SnapshotFrom<typeof syncMachine>;

export const selectIsDataReady = (snapshot: SyncSnapshot): boolean => snapshot.context.dataReady;
export const selectIsSyncing = (snapshot: SyncSnapshot): boolean => snapshot.hasTag('syncing');
/** A fresh full sync of an empty store is under way: the UI shows a loading state rather than searching. */
export const selectIsFreshSync = (snapshot: SyncSnapshot): boolean =>
  snapshot.hasTag('syncing') && snapshot.context.fresh;
export const selectCurrentType = (snapshot: SyncSnapshot): SyncType | null => snapshot.context.currentType;
export const selectProgress = (snapshot: SyncSnapshot): Record<SyncType, TypeProgress> => snapshot.context.progress;
export const selectResults = (snapshot: SyncSnapshot): Partial<Record<SyncType, SyncTypeResult>> =>
  snapshot.context.results;
export const selectLastErrors = (snapshot: SyncSnapshot): Partial<Record<SyncType, string>> =>
  snapshot.context.lastErrors;
export const selectLastRound = (snapshot: SyncSnapshot): SyncRound | null => snapshot.context.lastRound;
export const selectUnavailableReason = (snapshot: SyncSnapshot): string | null => snapshot.context.unavailableReason;
