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
// Citations not yet uploaded (issue 38): asked about at Logout, with a module loaded only then.
const loadUnsent = () => import('./unsent-citations');
const UnsentCitationsQuestion = lazy(() => loadUnsent().then((module) => ({ default: module.UnsentCitationsQuestion })));

/**
 * Logout, asking first when the officer has citations on this device that have not reached the office (they are kept
 * whatever the answer: the outbox is not emptied at logout), and when it would lose what cannot be fetched again now: offline, logging out empties the local
 * enforcement store (spec §4), and an officer who slipped would be left with nothing to search until the network
 * returns. Online, or with an empty store, it logs out at once. Either way the logout is deliberate: the next sign-in
 * lands on the new user's home (safe-redirect.ts).
 */
export function useGuardedLogout(officer: string): { logout: () => void; dialog: ReactNode } {
  const { logout } = useSessionServices();
  const engine = useEnforcementEngine();
  const [held, setHeld] = useState<number | null>(null);
  const [unsent, setUnsent] = useState(0);

  const logoutNow = useCallback(() => {
    setHeld(null);
    setUnsent(0);
    markDeliberateLogout();
    logout();
  }, [logout]);

  const askAboutStore = useCallback(() => {
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

  // Citations first: they are kept whatever the answer, but the officer should know they have not left the device.
  const request = useCallback(() => {
    loadUnsent()
      .then((module) => module.unsentCitations(officer), () => 0)
      .then((count) => (count > 0 ? setUnsent(count) : askAboutStore()));
  }, [officer, askAboutStore]);

  const dialog = unsent > 0 ? (
    <Suspense fallback={null}>
      <UnsentCitationsQuestion
        count={unsent}
        onStay={() => setUnsent(0)}
        onLogout={() => {
          setUnsent(0);
          askAboutStore();
        }}
      />
    </Suspense>
  ) : held !== null && (
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
