import { useId, useState } from 'react';
import { SYNC_TYPES, type SyncType } from '../../../../contract/enforcement';
import type { TypeProgress } from '../../../../machines/sync/sync.machine';
import type { StoreStatus } from '../../../../worker/enforcement-worker-api';
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

/** Types that failed with the same message, once per message (four types failing offline read as one line). */
function groupErrors(lastErrors: SyncView['lastErrors']): { types: SyncType[]; message: string }[] {
  const groups: { types: SyncType[]; message: string }[] = [];
  for (const type of SYNC_TYPES) {
    const message = lastErrors[type];
    if (message === undefined) continue;
    const group = groups.find((g) => g.message === message);
    if (group) group.types.push(type);
    else groups.push({ types: [type], message });
  }
  return groups;
}

/** "Downloading records: SpotHero (3 of 5), 4,000 records so far" or "Syncing: Valid transactions (1 of 5)". */
function describeProgress(sync: SyncView): string {
  const current = sync.currentType;
  if (!current) return '';
  const step = `${SYNC_TYPE_LABELS[current]} (${SYNC_TYPES.indexOf(current) + 1} of ${SYNC_TYPES.length})`;
  const records = sync.progress[current].recordsDone;
  const soFar = records > 0 ? `, ${records.toLocaleString('en-US')} records so far` : '';
  return `${sync.fresh ? 'Downloading records' : 'Syncing'}: ${step}${soFar}`;
}

export interface SyncStatusProps {
  status: StoreStatus | null;
  sync: SyncView;
  online: boolean;
  now: number;
  onSyncNow: () => void;
}

/** How fresh the officer's data is, what the sync is doing, and what went wrong, in words. */
export function SyncStatusBar({ status, sync, online, now, onSyncNow }: SyncStatusProps) {
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
            {describeProgress(sync)}
            <progress max={SYNC_TYPES.length} value={typeIndex} />
          </label>
          {sync.fresh && !sync.dataReady && <p className="muted">Search opens when the download is complete.</p>}
        </div>
      )}
      <ul className="sync-types">
        {SYNC_TYPES.map((type) => {
          const held = status?.types.find((t) => t.type === type);
          const failed = sync.lastErrors[type] !== undefined;
          return (
            <li key={type}>
              <span className="sync-type-name">{SYNC_TYPE_LABELS[type]}</span>{' '}
              <span className="muted">
                {failed ? `last sync failed; last ${describeSyncAge(held?.lastSync ?? null, now)}` : describeSyncAge(held?.lastSync ?? null, now)}
                {held ? ` · ${held.totalRecords.toLocaleString('en-US')} records` : ''}
              </span>
            </li>
          );
        })}
      </ul>
      {errors.length > 0 && (
        <ul className="sync-errors" role="alert">
          {groupErrors(sync.lastErrors).map(({ types, message }) => (
            <li key={message}>
              {types.map((type) => SYNC_TYPE_LABELS[type]).join(', ')} could not sync: {message}
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

/**
 * The slim line at the top of the screen, always in sight: online or offline, how old the data is, and the sync's
 * progress or its error, as one message; a tap opens the full details (SyncStatusBar) below it.
 */
export function SyncStatusLine({
  lastSyncedAt,
  citationsWaiting = 0,
  ...props
}: SyncStatusProps & { lastSyncedAt: number | null; citationsWaiting?: number }) {
  const { sync, online, now } = props;
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const messages = groupErrors(sync.lastErrors).map((g) => g.message);
  let state: string;
  let tone: 'ok' | 'busy' | 'error';
  if (sync.unavailableReason) {
    state = 'Local lookups unavailable on this device';
    tone = 'error';
  } else if (sync.syncing && sync.currentType) {
    state = describeProgress(sync);
    tone = 'busy';
  } else if (messages.length > 0) {
    state = `Sync failed: ${messages.join('; ')}`;
    tone = 'error';
  } else {
    state = '';
    tone = 'ok';
  }
  const age = lastSyncedAt === null ? 'not synced yet' : `data ${describeSyncAge(lastSyncedAt, now)}`;
  return (
    <div className="sync-line-wrap">
      <div className={`sync-line sync-line-${tone}`}>
        <span role="status" className="sync-line-text">
          <span className={online ? 'sync-line-online' : 'sync-line-offline'}>{online ? 'Online' : 'Offline'}</span>
          {' · '}
          {age}
          {state && ` · ${state}`}
          {citationsWaiting > 0 && ` · ${citationsWaiting} ${citationsWaiting === 1 ? 'citation' : 'citations'} waiting to upload`}
        </span>
        <button
          type="button"
          className="sync-line-more"
          aria-expanded={open}
          aria-controls={open ? detailsId : undefined}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide' : 'Details'}
        </button>
      </div>
      {open && (
        <div id={detailsId} className="sync-line-panel">
          <SyncStatusBar {...props} />
        </div>
      )}
    </div>
  );
}

