import { SYNC_TYPES, type SyncType } from '../../../contract/enforcement';
import type { TypeProgress } from '../../../machines/sync/sync.machine';
import type { StoreStatus } from '../../../worker/enforcement-worker-api';
import { describeSyncAge } from './enforcement-format';

export const SYNC_TYPE_LABELS: Record<SyncType, string> = {
  valid: 'Valid transactions',
  expired: 'Expired transactions',
  spothero: 'SpotHero',
  parkwhiz: 'ParkWhiz',
  monthly_parkers: 'Monthly parkers',
};

export interface SyncView {
  syncing: boolean;
  fresh: boolean;
  dataReady: boolean;
  currentType: SyncType | null;
  progress: Record<SyncType, TypeProgress>;
  lastErrors: Partial<Record<SyncType, string>>;
  unavailableReason: string | null;
}

interface Props {
  status: StoreStatus | null;
  sync: SyncView;
  online: boolean;
  now: number;
  onSyncNow: () => void;
}

/** How fresh the officer's data is, what the sync is doing, and what went wrong, in words. */
export function SyncStatusBar({ status, sync, online, now, onSyncNow }: Props) {
  const current = sync.currentType;
  const typeIndex = current ? SYNC_TYPES.indexOf(current) : -1;
  const errors = SYNC_TYPES.filter((type) => sync.lastErrors[type]);
  return (
    <section className="sync-status" aria-label="Sync status">
      {!online && (
        <p className="sync-offline" role="status">
          Offline: searching the records on this device. Sync resumes when the network returns.
        </p>
      )}
      {sync.unavailableReason && (
        <p className="form-error" role="alert">
          Local lookups are unavailable on this device: {sync.unavailableReason} Searches return no results.
        </p>
      )}
      {sync.syncing && current && (
        <div className="sync-progress">
          <label>
            {sync.fresh ? 'Downloading records for your locations' : 'Syncing'}: {SYNC_TYPE_LABELS[current]}, page{' '}
            {sync.progress[current].pagesDone + 1} ({sync.progress[current].recordsDone.toLocaleString('en-US')}{' '}
            records)
            <progress max={SYNC_TYPES.length} value={typeIndex} />
          </label>
          {sync.fresh && !sync.dataReady && <p className="muted">Search opens when the download is complete.</p>}
        </div>
      )}
      <ul className="sync-types">
        {SYNC_TYPES.map((type) => {
          const held = status?.types.find((t) => t.type === type);
          return (
            <li key={type}>
              <span className="sync-type-name">{SYNC_TYPE_LABELS[type]}</span>{' '}
              <span className="muted">
                {describeSyncAge(held?.lastSync ?? null, now)}
                {held ? ` · ${held.totalRecords.toLocaleString('en-US')} records` : ''}
              </span>
            </li>
          );
        })}
      </ul>
      {errors.length > 0 && (
        <ul className="sync-errors" role="alert">
          {errors.map((type) => (
            <li key={type}>
              {SYNC_TYPE_LABELS[type]} could not sync: {sync.lastErrors[type]}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button" onClick={onSyncNow} disabled={sync.syncing || !online}>
        {sync.syncing ? 'Syncing…' : 'Sync now'}
      </button>
    </section>
  );
}
