import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { importWhenIdle } from '../../ui/idle-import';
import { useEnforcementEngine } from './enforcement-context';
import { markDeliberateLogout } from './safe-redirect';
import { useSessionServices } from './session-services';

// Radix's AlertDialog (~20 KB gz) stays off the critical path of every signed-in page, /list included (bench:screen
// listJsGzKB), but it cannot wait until the question is asked: the question is asked offline, when the download would
// fail (and the service worker may not have precached it yet on a first visit). So it is an idle-time import
// (../ui/idle-import.ts), already there when the officer taps Logout; the lazy component then resolves at once.
const loadConfirmDialog = () => import('../../ui/confirm-dialog');
importWhenIdle(loadConfirmDialog);
const ConfirmDialog = lazy(() => loadConfirmDialog().then((module) => ({ default: module.ConfirmDialog })));

/**
 * Logout, asking first when it would lose what cannot be fetched again now: offline, logging out empties the local
 * enforcement store (spec §4), and an officer who slipped would be left with nothing to search until the network
 * returns. Online, or with an empty store, it logs out at once. Either way the logout is deliberate: the next sign-in
 * lands on the new user's home (safe-redirect.ts).
 */
export function useGuardedLogout(): { logout: () => void; dialog: ReactNode } {
  const { logout } = useSessionServices();
  const engine = useEnforcementEngine();
  const [held, setHeld] = useState<number | null>(null);

  const logoutNow = useCallback(() => {
    setHeld(null);
    markDeliberateLogout();
    logout();
  }, [logout]);

  const request = useCallback(() => {
    if (navigator.onLine || engine === null) return logoutNow();
    engine.worker.status().then(
      (status) => {
        const records = status.types.reduce((sum, type) => sum + type.totalRecords, 0);
        if (records > 0) setHeld(records);
        else logoutNow();
      },
      () => logoutNow(),
    );
  }, [engine, logoutNow]);

  const dialog = held !== null && (
    <Suspense fallback={null}>
      <ConfirmDialog
        open
        onOpenChange={(open) => {
          if (!open) setHeld(null);
        }}
        title="Log out while offline?"
        description={
          <p>
            This device is offline. Logging out deletes the {held.toLocaleString('en-US')} records stored on it for
            plate searches, and they cannot be downloaded again until the network returns. Stay signed in to keep
            searching.
          </p>
        }
        cancelLabel="Stay signed in"
        confirmLabel="Log out and delete"
        destructive
        onConfirm={logoutNow}
      />
    </Suspense>
  );
  return { logout: request, dialog };
}
