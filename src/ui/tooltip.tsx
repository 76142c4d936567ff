import { createContext, useContext, type ReactElement, type ReactNode } from 'react';
import { importWhenIdle, useIdleImport } from './idle-import';

/** Spec §9: tooltips open after 700 ms; moving between triggers within 300 ms opens the next at once. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Radix Tooltip and floating-ui are not needed for a page to become usable: they arrive at idle time.
const radixTooltip = importWhenIdle(() => import('./tooltip-radix'));
const LoadedTooltip = createContext<typeof import('./tooltip-radix') | null>(null);

/**
 * The triggers inside share the delays (one opens at once after another closed). Until Radix Tooltip has loaded, the
 * children render alone; when it arrives they are mounted again inside Radix's provider. So it goes around the
 * triggers that show tooltips (the sidebar's rail), never around the app, whose state a new mount would lose.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  const radix = useIdleImport(radixTooltip);
  if (!radix) return children;
  return (
    <LoadedTooltip value={radix}>
      <radix.TooltipGroup delayDuration={TOOLTIP_OPEN_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
        {children}
      </radix.TooltipGroup>
    </LoadedTooltip>
  );
}

/**
 * A tooltip on one trigger, inside a TooltipProvider. The trigger renders alone while `enabled` is false (e.g. its
 * label is already visible) or Radix Tooltip has not loaded yet, so it needs a name of its own (`aria-label`).
 */
export function Tooltip({ label, enabled = true, children }: { label: string; enabled?: boolean; children: ReactElement }) {
  const radix = useContext(LoadedTooltip);
  if (!enabled || !radix) return children;
  return <radix.TooltipOnTrigger label={label}>{children}</radix.TooltipOnTrigger>;
}
