import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tooltip, TooltipProvider } from '../../src/ui/tooltip';

function renderTriggers() {
  return render(
    <TooltipProvider>
      <Tooltip label="Locations">
        <button type="button">L</button>
      </Tooltip>
      <Tooltip label="Promo Codes">
        <button type="button">P</button>
      </Tooltip>
    </TooltipProvider>,
  );
}

const hover = (el: HTMLElement) => fireEvent.pointerMove(el, { pointerType: 'mouse' });
/** Leaves the trigger and moves well away from it, so Radix's hover grace area ends and the tooltip closes. */
const leave = (el: HTMLElement) => {
  fireEvent.pointerLeave(el, { pointerType: 'mouse', clientX: 0, clientY: 0 });
  fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 900, clientY: 900 });
};
const tooltip = (name: string) => screen.queryByRole('tooltip', { name });

describe('tooltips', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('open 700 ms after the pointer rests on the trigger, not before', () => {
    renderTriggers();
    hover(screen.getByRole('button', { name: 'L' }));
    act(() => vi.advanceTimersByTime(699));
    expect(tooltip('Locations')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(tooltip('Locations')).not.toBeNull();
  });

  it('open at once on the next trigger within 300 ms, and with the delay again after that', () => {
    renderTriggers();
    const first = screen.getByRole('button', { name: 'L' });
    const second = screen.getByRole('button', { name: 'P' });
    hover(first);
    act(() => vi.advanceTimersByTime(700));
    leave(first);
    expect(tooltip('Locations')).toBeNull();
    act(() => vi.advanceTimersByTime(299));
    hover(second);
    expect(tooltip('Promo Codes')).not.toBeNull();

    leave(second);
    act(() => vi.advanceTimersByTime(301));
    hover(first);
    expect(tooltip('Locations')).toBeNull();
    act(() => vi.advanceTimersByTime(700));
    expect(tooltip('Locations')).not.toBeNull();
  });
});

describe('tooltips before Radix Tooltip has loaded', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('render the trigger alone, with its own name, and wrap it once loaded', async () => {
    // Fresh modules: Radix Tooltip is imported at idle time after the first page (src/ui/idle-import.ts).
    vi.resetModules();
    const idle = await import('../../src/ui/idle-import');
    const fresh = await import('../../src/ui/tooltip');
    render(
      <fresh.TooltipProvider>
        <fresh.Tooltip label="Locations">
          <a href="/locations" aria-label="Locations">
            L
          </a>
        </fresh.Tooltip>
      </fresh.TooltipProvider>,
    );
    const trigger = () => screen.getByRole('link', { name: 'Locations' });
    expect(trigger()).not.toHaveAttribute('data-state');
    hover(trigger());
    act(() => vi.advanceTimersByTime(1000));
    expect(tooltip('Locations')).toBeNull();

    idle.releaseIdleImports();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_SETTLE_MS + idle.IDLE_IMPORT_FALLBACK_MS);
      await idle.idleImportsSettled();
    });
    expect(trigger()).toHaveAttribute('data-state', 'closed');
    hover(trigger());
    act(() => vi.advanceTimersByTime(699));
    expect(tooltip('Locations')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(tooltip('Locations')).not.toBeNull();
  });
});
