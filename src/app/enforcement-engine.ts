import { wrap, type Remote } from 'comlink';
import { createActor } from 'xstate';
import type { AuthActorRef } from '../machines/auth/auth.machine';
import { syncMachine, type SyncActorRef } from '../machines/sync/sync.machine';
import { createSyncImplementations } from '../machines/sync/sync.actors';
import type { EnforcementWorkerApi } from '../worker/enforcement-worker-api';
import { authViewOf } from './auth-actor';
import { config } from './config';
import { currentIdToken } from './firebase';
import { inspect } from './inspector';
import { readStoredSession } from './session-storage';

/** The enforcement worker and the sync machine that drives it, for one page. */
export interface EnforcementEngine {
  worker: Remote<EnforcementWorkerApi>;
  sync: SyncActorRef;
}

function createEngine(authActor: AuthActorRef): EnforcementEngine {
  const thread = new Worker(new URL('../worker/enforcement.worker.ts', import.meta.url), {
    type: 'module',
    name: 'enforcement',
  });
  thread.onerror = (event) => console.error('Enforcement worker failed', event.message);
  const worker = wrap<EnforcementWorkerApi>(thread);
  const sync = createActor(
    syncMachine.provide(
      createSyncImplementations({
        worker,
        getIdToken: currentIdToken,
        getSessionToken: () => readStoredSession()?.token ?? null,
        onSessionError: (code) => authActor.send({ type: 'auth.sessionExpired', code }),
      }),
    ),
    { ...(inspect ? { inspect } : {}) },
  );
  return { worker, sync };
}

/**
 * Starts the enforcement engine once a signed-in user holds enforcement locations (spec §4) and tells the sync
 * machine about every change of session or locations; on sign-out the local store is emptied. The worker is created
 * only for such users, so nobody else downloads it.
 */
export interface EnforcementEngineHolder {
  get(): EnforcementEngine | null;
  subscribe(listener: () => void): () => void;
}

export function connectEnforcementEngine(authActor: AuthActorRef): EnforcementEngineHolder {
  let engine: EnforcementEngine | null = null;
  const listeners = new Set<() => void>();
  let opened: Promise<unknown> | null = null;
  let wasSignedIn = false;

  authActor.subscribe((snapshot) => {
    const view = authViewOf(snapshot);
    if (view.status === 'resolving') return;
    const signedIn = view.status === 'authenticated';
    const locationIds = signedIn
      ? view.permissions.featureLevelLocations.enforcementLocations.map((location) => location.location_id)
      : [];
    if (!engine && locationIds.length > 0) {
      engine = createEngine(authActor);
      engine.sync.start();
      opened = engine.worker.open();
      for (const listener of listeners) listener();
      // Workers cannot ask for persistent storage; without it the browser may evict the officers' offline data.
      void navigator.storage?.persist?.().catch(() => false);
      // Back online: catch up at once rather than at the next three-minute check.
      const { sync } = engine;
      window.addEventListener('online', () => sync.send({ type: 'sync.requested' }));
    }
    if (engine) {
      const { sync, worker } = engine;
      const notify = () => sync.send({ type: 'sync.sessionChanged', signedIn, locationIds, apiBase: config.apiBase });
      // The machine's status check reports a store that failed to open; it must hear of the session either way.
      void (opened ?? Promise.resolve()).then(notify, notify);
      if (wasSignedIn && !signedIn) void worker.clear();
    }
    wasSignedIn = signedIn;
  });
  return {
    get: () => engine,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
