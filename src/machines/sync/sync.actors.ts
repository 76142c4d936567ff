import { proxy, type Remote } from 'comlink';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { SessionErrorCode } from '../../contract/envelope';
import type {
  EnforcementWorkerApi,
  SyncAuth,
  SyncProgress,
  SyncTypeRequest,
} from '../../worker/enforcement-worker-api';
import {
  syncErrorMessage,
  type PurgeInput,
  type StatusCheck,
  type SyncEvent,
  type SyncLockInput,
  type SyncStage,
} from './sync.machine';

/** The part of the Web Locks API the sync uses; `navigator.locks` is one. */
export interface SyncLocks {
  request(name: string, options: { ifAvailable: true }, callback: (lock: Lock | null) => Promise<void>): Promise<void>;
}

export interface SyncImplementationDeps {
  /** The enforcement worker, wrapped with Comlink. */
  worker: Remote<EnforcementWorkerApi>;
  /** The Firebase ID token, asked for before each page (it may be refreshed during a long sync). */
  getIdToken: () => Promise<string | null>;
  /** The server session token of the stored session (`lpa`), read when each type starts. */
  getSessionToken: () => string | null;
  /** The server refused the session (TokenExpired, NoTokenProvided, InvalidToken): sign the user out. */
  onSessionError: (code: SessionErrorCode) => void;
  /** Where sync errors go; defaults to console.error (forwarded to the logging service on the production host). */
  logSyncError?: (entry: { stage: SyncStage; message: string }) => void;
  /** Defaults to `navigator.locks`; null (or a browser without Web Locks) lets this tab sync without a lock. */
  locks?: SyncLocks | null;
  /** The wall clock; defaults to Date.now. */
  now?: () => number;
}

function defaultLocks(): SyncLocks | null {
  return globalThis.navigator?.locks ?? null;
}

/** The worker- and Web-Locks-backed actors of `syncMachine`. */
export function createSyncActors({
  worker,
  getIdToken,
  getSessionToken,
  locks = defaultLocks(),
  now = Date.now,
}: Pick<SyncImplementationDeps, 'worker' | 'getIdToken' | 'getSessionToken' | 'locks' | 'now'>) {
  return {
    checkStatus: fromPromise<StatusCheck>(async () => {
      const status = await worker.status();
      return { status, now: now() };
    }),

    /**
     * Asks for the lock without waiting (another tab's sync means this round is skipped) and, once granted, holds it
     * until the actor is stopped: the machine stops it whenever it leaves `syncing`, however it leaves.
     */
    acquireSyncLock: fromCallback<EventObject, SyncLockInput>(({ input, sendBack }) => {
      if (!locks) {
        // Without Web Locks other tabs cannot be seen; this tab still syncs one round at a time.
        sendBack({ type: 'sync.lockAcquired' } satisfies SyncEvent);
        return;
      }
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      locks
        .request(input.name, { ifAvailable: true }, async (lock) => {
          if (!lock) {
            sendBack({ type: 'sync.lockUnavailable' } satisfies SyncEvent);
            return;
          }
          sendBack({ type: 'sync.lockAcquired' } satisfies SyncEvent);
          // Returning lets the lock go; released at once when the actor was stopped before the lock was granted.
          await released;
        })
        .catch((error: unknown) => sendBack({ type: 'sync.lockFailed', message: syncErrorMessage(error) } satisfies SyncEvent));
      return release;
    }),

    /**
     * One type's sync in the worker. Progress and the result come back as events; once the actor is stopped (sign-out,
     * a change of locations) they are dropped. The worker call itself cannot be cancelled through Comlink.
     */
    syncType: fromCallback<EventObject, SyncTypeRequest>(({ input, sendBack }) => {
      const auth: SyncAuth = { getIdToken, sessionToken: getSessionToken() };
      const onProgress = (progress: SyncProgress) => sendBack({ type: 'sync.progress', progress } satisfies SyncEvent);
      worker.syncType(input, proxy(auth), proxy(onProgress)).then(
        (result) => sendBack({ type: 'sync.typeResult', dataType: input.type, result } satisfies SyncEvent),
        (error: unknown) =>
          sendBack({ type: 'sync.typeError', dataType: input.type, message: syncErrorMessage(error) } satisfies SyncEvent),
      );
    }),

    purge: fromPromise<{ purged: number }, PurgeInput>(({ input }) => worker.purge(input.now)),
  };
}

/** The side effects of `syncMachine`: logging and telling the app the session was refused. */
export function createSyncActions({
  onSessionError,
  logSyncError = ({ stage, message }) => console.error(`Enforcement sync failed (${stage}): ${message}`),
}: Pick<SyncImplementationDeps, 'onSessionError' | 'logSyncError'>) {
  return {
    logSyncError: (_: unknown, params: { stage: SyncStage; message: string }) => logSyncError(params),
    reportSessionError: (_: unknown, params: { code: SessionErrorCode }) => onSessionError(params.code),
  };
}

/**
 * Everything `syncMachine.provide()` needs in the browser:
 * `createActor(syncMachine.provide(createSyncImplementations(deps)), { inspect })`.
 */
export function createSyncImplementations(deps: SyncImplementationDeps) {
  return { actors: createSyncActors(deps), actions: createSyncActions(deps) };
}
