import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The toast region (Radix Toast) is imported at idle time after the first page (src/ui/idle-import.ts). Each test
 * starts from fresh modules, so the region has not loaded, and lets it load when the test says.
 */
async function freshToasts({ strict = false } = {}) {
  vi.resetModules();
  const idle = await import('../../src/ui/idle-import');
  const { ToastRoot } = await import('../../src/ui/toast/toaster');
  const store = await import('../../src/ui/toast/toast-store');
  render(
    <ToastRoot>
      <p>Page</p>
    </ToastRoot>,
    { reactStrictMode: strict },
  );
  const loadRegion = async () => {
    idle.releaseIdleImports();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_SETTLE_MS + idle.IDLE_IMPORT_FALLBACK_MS);
      await idle.idleImportsSettled();
    });
  };
  return { ...store, loadRegion };
}

const region = () => screen.queryByRole('region', { name: /Notifications/ });
const toastEl = () => document.querySelector('.toast') as HTMLElement | null;
const isClosed = () => (toastEl()?.getAttribute('data-state') ?? 'closed') === 'closed';

describe('toasts raised before the toast region has loaded', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
  afterEach(() => vi.useRealTimers());

  it('are shown once it has loaded, for the full 5000 ms from then', async () => {
    const { toast, loadRegion } = await freshToasts();
    act(() => void toast({ title: 'Saved', description: 'Before the region' }));
    expect(region()).toBeNull();
    expect(screen.queryByText('Saved')).toBeNull();
    // However long the page takes to be usable, the toast waits.
    await act(() => vi.advanceTimersByTimeAsync(5000));

    await loadRegion();
    expect(region()).toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.getByText('Before the region')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4999));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    act(() => vi.advanceTimersByTime(2));
    expect(isClosed()).toBe(true);
  });

  it('are shown one at a time, the oldest first, each after the previous one closed', async () => {
    const { toast, loadRegion } = await freshToasts();
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', variant: 'destructive' });
      toast({ title: 'Third' });
    });
    await loadRegion();
    expect(screen.getByText('First')).toBeInTheDocument();
    expect(screen.queryByText('Second')).toBeNull();
    expect(document.querySelectorAll('.toast')).toHaveLength(1);

    // The first times out; the second takes its place, for its own 5000 ms.
    act(() => vi.advanceTimersByTime(5001));
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(toastEl()).toHaveClass('toast-destructive');
    act(() => vi.advanceTimersByTime(4999));
    expect(toastEl()).toHaveAttribute('data-state', 'open');

    // Closing one by hand shows the next as well.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('Third')).toBeInTheDocument();
    expect(toastEl()).toHaveAttribute('data-state', 'open');
  });

  it('start with the oldest in StrictMode too, which mounts the region twice in development', async () => {
    const { toast, loadRegion } = await freshToasts({ strict: true });
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second' });
    });
    await loadRegion();
    expect(screen.getByText('First')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5001));
    expect(screen.getByText('Second')).toBeInTheDocument();
  });

  it('are dropped when a newer toast is raised after the region loaded, as the one on screen is', async () => {
    const { toast, loadRegion } = await freshToasts();
    act(() => {
      toast({ title: 'Old one' });
      toast({ title: 'Older one still waiting' });
    });
    await loadRegion();
    act(() => void toast({ title: 'Newest' }));
    expect(screen.queryByText('Old one')).toBeNull();
    expect(screen.getByText('Newest')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5001));
    expect(isClosed()).toBe(true);
    expect(screen.queryByText('Older one still waiting')).toBeNull();
  });

  it('are not shown when dismissed before the region loaded', async () => {
    const { toast, dismissToast, loadRegion } = await freshToasts();
    act(() => dismissToast(toast({ title: 'Withdrawn' })));
    await loadRegion();
    expect(region()).toBeInTheDocument();
    expect(screen.queryByText('Withdrawn')).toBeNull();
  });

  it('F8 reaches the region only once it has loaded', async () => {
    const { toast, loadRegion } = await freshToasts();
    act(() => void toast({ title: 'Saved' }));
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(document.body).toHaveFocus();
    await loadRegion();
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(document.querySelector('.toast-viewport')).toHaveFocus();
  });
});
