import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { EnforcementEngine, EnforcementEngineHolder } from './enforcement-engine';

const none: EnforcementEngineHolder = { get: () => null, subscribe: () => () => undefined };
const EngineContext = createContext<EnforcementEngineHolder>(none);

export function EnforcementEngineProvider({ holder, children }: { holder: EnforcementEngineHolder; children: ReactNode }) {
  return <EngineContext.Provider value={holder}>{children}</EngineContext.Provider>;
}

/** The page's enforcement worker and sync machine, once the signed-in user has enforcement locations. */
export function useEnforcementEngine(): EnforcementEngine | null {
  const holder = useContext(EngineContext);
  return useSyncExternalStore(holder.subscribe, holder.get, holder.get);
}
