import { wrap } from 'comlink';
import { createActor } from 'xstate';
import type { AuthActorRef } from '../machines/auth/auth.machine';
import { syncMachine } from '../machines/sync/sync.machine';
import { createSyncImplementations } from '../machines/sync/sync.actors';
import type { EnforcementWorkerApi } from '../worker/enforcement-worker-api';
import { currentIdToken } from './firebase';
import type { EnforcementEngine } from '../routes/-shared/enforcement-engine';
import { inspect } from './inspector';
import { readStoredSession } from './session-storage';


/** An engine whose sync machine runs, and the opening of its local store. */
export interface StartedEnforcementEngine {
  engine: EnforcementEngine;
  opened: Promise<unknown>;
}

/**
 * The enforcement worker and the sync machine that drives it. Imported only by ./enforcement-engine.ts, and only for
 * a user with enforcement locations, so that comlink and the sync machine stay out of the entry chunk.
 */
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

/** Creates the engine, starts the sync machine and opens the local store. */
export function startEnforcementEngine(authActor: AuthActorRef): StartedEnforcementEngine {
  const engine = createEngine(authActor);
  engine.sync.start();
  const opened = engine.worker.open();
  // Workers cannot ask for persistent storage; without it the browser may evict the officers' offline data.
  void navigator.storage?.persist?.().catch(() => false);
  // Back online: catch up at once rather than at the next three-minute check.
  window.addEventListener('online', () => engine.sync.send({ type: 'sync.requested' }));
  return { engine, opened };
}
