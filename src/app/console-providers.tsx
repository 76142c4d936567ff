import type { ReactNode } from 'react';
import { AppErrorBoundary } from '../ui/app-error-boundary';
import { ToastRoot } from '../ui/toast/toaster';
import { TooltipProvider } from '../ui/tooltip';

/** Spec §2: one root holds the app shell plus the toast area; tooltips and the error boundary wrap it all. */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <AppErrorBoundary>
      <ToastRoot>
        <TooltipProvider>{children}</TooltipProvider>
      </ToastRoot>
    </AppErrorBoundary>
  );
}
