import type { ReactNode } from 'react';
import { importWhenIdle, useIdleImport } from '../idle-import';

const toastRegion = importWhenIdle(() => import('./toast-region'));

/**
 * The root's toast area (spec §2) beside the app. Radix Toast is not needed for a page to become usable, so the area
 * arrives at idle time; toasts raised before then wait in the store and show once it is there (./toast-store.ts).
 * The area is a sibling of the app, not its parent, so its arrival re-renders nothing else.
 */
export function ToastRoot({ children }: { children: ReactNode }) {
  const region = useIdleImport(toastRegion);
  return (
    <>
      {children}
      {region && <region.ToastRegion />}
    </>
  );
}
