import type { ReactNode } from 'react';
import { AppErrorBoundary } from '../ui/app-error-boundary';
import { ToastRoot } from '../ui/toast/toaster';
// Tooltips show only once signed in (the sidebar's rail), but Radix Tooltip is fetched at idle time on every page, the
// login page included, so that it is there before the pointer first rests on an icon (src/ui/tooltip.tsx).
import '../ui/tooltip';

/**
 * Spec §2: one root holds the app shell plus the toast area; the error boundary wraps it all. Tooltips have their
 * provider around the triggers that use them (the sidebar's rail, src/ui/tooltip.tsx).
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <AppErrorBoundary>
      <ToastRoot>{children}</ToastRoot>
    </AppErrorBoundary>
  );
}
