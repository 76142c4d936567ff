import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { importWhenIdle, useIdleImport } from '../../../../ui/idle-import';
import { SYNC_TYPES } from '../../../../contract/enforcement';
import type { EnforcementEngine } from '../../../-shared/enforcement-engine';
import {
  selectCurrentType,
  selectIsDataReady,
  selectIsFreshSync,
  selectIsSyncing,
  selectLastErrors,
  selectLastRound,
  selectProgress,
  selectUnavailableReason,
} from '../../../../machines/sync/sync.machine';
import type { LocationRef } from '../../../../permissions/permissions-object';
import type { PlateSearchRequest, SearchAheadRequest, StoreStatus } from '../../../../worker/enforcement-worker-api';
import { PlateSearch } from './plate-search';
import { SyncStatusLine, type SyncView } from './sync-status-bar';
import { useOnline } from './use-online';
import type { CitationDraft } from './citation-desk';

// The citation desk (outbox, uploader, form) and the Scan button are no part of the plate search's first load: they
// are imported at idle time, already there when the officer presses Write citation or Scan, offline included
// (decision 0013; the camera view and the plate reader load on Scan's first press, decision 0100).
const screenExtras = importWhenIdle(() => import('./screen-extras'));

/** Who writes citations here: the API, the officer, and the locations where they may (enforcement add). */
export interface CitationWriter {
  api: ApiClient;
  officer: string;
  locations: readonly LocationRef[];
}

/** Re-renders every 30 s so that "synced 4 min ago" and "expires in 5 min" stay true while the screen is open. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function useSyncView(engine: EnforcementEngine): SyncView {
  const { sync } = engine;
  return {
    syncing: useSelector(sync, selectIsSyncing),
    fresh: useSelector(sync, selectIsFreshSync),
    dataReady: useSelector(sync, selectIsDataReady),
    currentType: useSelector(sync, selectCurrentType),
    progress: useSelector(sync, selectProgress),
    lastErrors: useSelector(sync, selectLastErrors),
    unavailableReason: useSelector(sync, selectUnavailableReason),
  };
}

/** The store's status, read again after every sync round and every time the screen's clock ticks. */
function useStoreStatus(engine: EnforcementEngine, tick: number): StoreStatus | null {
  const round = useSelector(engine.sync, selectLastRound);
  const [status, setStatus] = useState<StoreStatus | null>(null);
  useEffect(() => {
    let live = true;
    engine.worker.status().then(
      (next) => live && setStatus(next),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [engine, round, tick]);
  return status;
}

export function EnforcementScreen({
  engine,
  locations,
  citations,
}: {
  engine: EnforcementEngine;
  locations: readonly LocationRef[];
  /** Absent for someone who may not write citations anywhere. */
  citations?: CitationWriter | undefined;
}) {
  const extras = useIdleImport(screenExtras);
  const [draft, setDraft] = useState<CitationDraft | null>(null);
  const [waiting, setWaiting] = useState(0);
  const verdictAction = useMemo(() => extras?.writeCitationAction(setDraft), [extras]);
  const now = useMinuteClock();
  const online = useOnline();
  const view = useSyncView(engine);
  const status = useStoreStatus(engine, now);
  const search = useCallback((request: PlateSearchRequest) => engine.worker.search(request), [engine]);
  const searchAhead = useCallback((request: SearchAheadRequest) => engine.worker.searchAhead(request), [engine]);
  const syncTimes = status?.types.map((t) => t.lastSync) ?? [];
  // The oldest type's sync is what the officer can rely on for "no record matches".
  const lastSyncedAt =
    syncTimes.length === SYNC_TYPES.length && syncTimes.every((t) => t !== null) ? Math.min(...(syncTimes as number[])) : null;

  // The status line comes first: offline, the data's age and the sync stay in sight while the officer searches.
  return (
    <div className="enforcement-screen">
      <SyncStatusLine
        status={status}
        sync={view}
        online={online}
        now={now}
        lastSyncedAt={lastSyncedAt}
        citationsWaiting={waiting}
        onSyncNow={() => engine.sync.send({ type: 'sync.requested' })}
      />
      {citations && extras && (
        <extras.CitationDesk {...citations} draft={draft} onDraftClosed={() => setDraft(null)} onWaiting={setWaiting} storeRebuilt={status?.rebuilt} />
      )}
      {/* The status is read again after every sync round and purge: answers read ahead before it are dropped. */}
      <PlateSearch
        search={search}
        searchAhead={searchAhead}
        storeVersion={status}
        locations={locations}
        ready={view.dataReady}
        lastSyncedAt={lastSyncedAt}
        {...(citations && verdictAction && { verdictAction })}
        {...(extras && { plateTool: extras.plateTool })}
      />
    </div>
  );
}
