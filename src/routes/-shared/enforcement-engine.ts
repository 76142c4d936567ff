import type { Remote } from 'comlink';
import type { SyncActorRef } from '../../machines/sync/sync.machine';
import type { EnforcementWorkerApi } from '../../worker/enforcement-worker-api';

/**
 * What the enforcement screen gets from the app: the page's worker and the sync machine that drives it. The app
 * starts them (src/app/enforcement-engine.ts) and hands them in through `EnforcementEngineProvider`.
 */
export interface EnforcementEngine {
  worker: Remote<EnforcementWorkerApi>;
  sync: SyncActorRef;
}

export interface EnforcementEngineHolder {
  /** The engine once it has loaded and started, else null (the enforcement screen shows its spinner). */
  get(): EnforcementEngine | null;
  subscribe(listener: () => void): () => void;
}
