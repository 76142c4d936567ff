import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SYNC_TYPES } from '../../src/contract/enforcement';
import { SyncStatusBar, SyncStatusLine, type SyncView } from '../../src/routes/_authenticated/(enforcement)/-components/sync-status-bar';
import type { StoreStatus } from '../../src/worker/enforcement-worker-api';

const NOW = Date.parse('2026-11-21T18:00:00Z');
const idle: SyncView = {
  syncing: false,
  fresh: false,
  dataReady: true,
  currentType: null,
  progress: Object.fromEntries(SYNC_TYPES.map((t) => [t, { pagesDone: 0, recordsDone: 0 }])) as SyncView['progress'],
  lastErrors: {},
  unavailableReason: null,
};
const status: StoreStatus = {
  available: true,
  reason: null,
  empty: false,
  types: SYNC_TYPES.map((type, i) => ({ type, lastSync: NOW - (i + 4) * 60_000, totalRecords: 1000 * (i + 1), latestUpdatedAt: null })),
  storage: { usageBytes: null, quotaBytes: null, persisted: true },
  rebuilt: false,
};

describe('the sync status bar', () => {
  it('says when each type was last synced and how many records it holds', () => {
    render(<SyncStatusBar status={status} sync={idle} online now={NOW} onSyncNow={() => undefined} />);
    expect(screen.getByText('synced 4 min ago · 1,000 records')).toBeInTheDocument();
    expect(screen.getByText('synced 8 min ago · 5,000 records')).toBeInTheDocument();
  });

  it('shows the type in progress and its pages during a fresh sync, and that search waits', () => {
    const syncing: SyncView = {
      ...idle,
      syncing: true,
      fresh: true,
      dataReady: false,
      currentType: 'spothero',
      progress: { ...idle.progress, spothero: { pagesDone: 2, recordsDone: 4000 } },
    };
    render(<SyncStatusBar status={null} sync={syncing} online now={NOW} onSyncNow={() => undefined} />);
    expect(screen.getByText(/Downloading records: SpotHero \(3 of 5\), 4,000 records so far/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '2');
    expect(screen.getByText('Search opens when the download is complete.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Syncing…' })).toBeDisabled();
  });

  it('says when the device is offline, and offers no sync then', () => {
    render(<SyncStatusBar status={status} sync={idle} online={false} now={NOW} onSyncNow={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('Offline');
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  });

  it('puts sync errors and a missing store into words', () => {
    const failing: SyncView = {
      ...idle,
      lastErrors: { parkwhiz: 'Network error: could not reach the server' },
      unavailableReason: 'This browser has no IndexedDB (private mode?).',
    };
    render(<SyncStatusBar status={status} sync={failing} online now={NOW} onSyncNow={() => undefined} />);
    const alerts = screen.getAllByRole('alert').map((el) => el.textContent);
    expect(alerts).toContain('ParkWhiz could not sync: Network error: could not reach the server');
    expect(screen.getByText(/last sync failed; last synced 7 min ago/)).toBeInTheDocument();
    expect(alerts.join(' ')).toContain('Local lookups are unavailable on this device: This browser has no IndexedDB');
  });

  it('asks for a sync on "Sync now"', async () => {
    const onSyncNow = vi.fn();
    render(<SyncStatusBar status={status} sync={idle} online now={NOW} onSyncNow={onSyncNow} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(onSyncNow).toHaveBeenCalledOnce();
  });
});

describe('the sync status line', () => {
  const line = (sync: SyncView, online = true, lastSyncedAt: number | null = NOW - 8 * 60_000) =>
    render(<SyncStatusLine status={status} sync={sync} online={online} now={NOW} lastSyncedAt={lastSyncedAt} onSyncNow={() => undefined} />);

  it('says online or offline and the data age in one line, details one tap away', async () => {
    line(idle, false);
    expect(screen.getByRole('status')).toHaveTextContent('Offline · data synced 8 min ago');
    expect(screen.queryByRole('button', { name: 'Sync now' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(await screen.findByRole('button', { name: 'Sync now' })).toBeDisabled();
    expect(screen.getByText('synced 4 min ago · 1,000 records')).toBeInTheDocument();
  });

  it('says a failed sync once, with the age of the data it left, never "synced just now"', () => {
    const message = 'Network error: could not reach the server';
    line({ ...idle, lastErrors: { valid: message, expired: message, spothero: message, parkwhiz: message } });
    expect(screen.getByRole('status')).toHaveTextContent(`Online · data synced 8 min ago · Sync failed: ${message}`);
    expect(screen.getByRole('status').textContent?.split(message)).toHaveLength(2);
  });

  it('shows the progress of a sync without "page 1 (0 records)"', () => {
    line({ ...idle, syncing: true, currentType: 'valid' }, true, null);
    expect(screen.getByRole('status')).toHaveTextContent('Online · not synced yet · Syncing: Valid transactions (1 of 5)');
    expect(screen.getByRole('status')).not.toHaveTextContent('0 records');
  });
});
