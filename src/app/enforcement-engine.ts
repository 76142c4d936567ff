import type { AuthActorRef } from '../machines/auth/auth.machine';
import { authViewOf } from './auth-actor';
import { config } from './config';
// Types only: the module itself is imported lazily below. It imports nothing from here, so the two form no cycle.
import type { StartedEnforcementEngine } from './start-enforcement-engine';
import type { EnforcementEngineHolder } from '../routes/-shared/enforcement-engine';

interface EnforcementSession {
  signedIn: boolean;
  locationIds: number[];
}

function tellSession({ engine, opened }: StartedEnforcementEngine, { signedIn, locationIds }: EnforcementSession): void {
  const notify = () =>
    engine.sync.send({ type: 'sync.sessionChanged', signedIn, locationIds, apiBase: config.apiBase });
  // The machine's status check reports a store that failed to open; it must hear of the session either way.
  void opened.then(notify, notify);
}

/**
 * Starts the enforcement engine once a signed-in user holds enforcement locations (spec §4) and tells the sync
 * machine about every change of session or locations; on sign-out the local store is emptied. The engine (comlink,
 * the sync machine, the worker) is imported only then, so no other user downloads it and no page waits for it
 * (docs/decisions/0014-enforcement-engine-loaded-when-needed.md).
 */
export function connectEnforcementEngine(authActor: AuthActorRef): EnforcementEngineHolder {
  let started: StartedEnforcementEngine | null = null;
  let loading = false;
  // What happened while the engine was loading, for it to catch up with when it starts.
  let latest: EnforcementSession = { signedIn: false, locationIds: [] };
  let signedOutWhileLoading = false;
  let wasSignedIn = false;
  const listeners = new Set<() => void>();

  const load = () => {
    loading = true;
    import('./start-enforcement-engine').then(
      ({ startEnforcementEngine }) => {
        started = startEnforcementEngine(authActor);
        if (signedOutWhileLoading) void started.engine.worker.clear();
        tellSession(started, latest);
        for (const listener of listeners) listener();
      },
      (error: unknown) => {
        // The next change of session tries again.
        loading = false;
        console.error('The enforcement engine could not be loaded', error);
      },
    );
  };

  authActor.subscribe((snapshot) => {
    const view = authViewOf(snapshot);
    if (view.status === 'resolving') return;
    const signedIn = view.status === 'authenticated';
    const locationIds = signedIn
      ? view.permissions.featureLevelLocations.enforcementLocations.map((location) => location.location_id)
      : [];
    const signedOut = wasSignedIn && !signedIn;
    wasSignedIn = signedIn;
    latest = { signedIn, locationIds };
    if (started) {
      tellSession(started, latest);
      if (signedOut) void started.engine.worker.clear();
    } else if (loading) {
      if (signedOut) signedOutWhileLoading = true;
    } else if (locationIds.length > 0) {
      load();
    }
  });
  return {
    get: () => started?.engine ?? null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
