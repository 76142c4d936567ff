import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastRoot } from '../../src/ui/toast/toaster';
import {
  dismissToast,
  resetToasts,
  toast,
  TOAST_REMOVE_DELAY_MS,
  useToasts,
} from '../../src/ui/toast/toast-store';

function ToastCount() {
  return <output aria-label="toasts in the list">{useToasts().length}</output>;
}

function renderToasts() {
  return render(
    <ToastRoot>
      <button type="button">Page button</button>
      <ToastCount />
    </ToastRoot>,
  );
}

const toastEl = () => document.querySelector('.toast') as HTMLElement | null;

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    resetToasts();
  });
  afterEach(() => {
    act(() => resetToasts());
    vi.useRealTimers();
  });

  it('shows one toast at a time: a new one replaces the old', () => {
    renderToasts();
    act(() => void toast({ title: 'First' }));
    act(() => void toast({ title: 'Second', description: 'Server said no', variant: 'destructive' }));
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getByText('Server said no')).toBeInTheDocument();
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(toastEl()).toHaveClass('toast-destructive');
  });

  it('closes itself after 5000 ms, not before', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    act(() => vi.advanceTimersByTime(4999));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    act(() => vi.advanceTimersByTime(2));
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('stays in the list for the removal delay after closing, then leaves it', () => {
    renderToasts();
    let id = 0;
    act(() => void (id = toast({ title: 'Saved' })));
    act(() => dismissToast(id));
    expect(screen.getByLabelText('toasts in the list')).toHaveTextContent('1');
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1));
    expect(screen.getByLabelText('toasts in the list')).toHaveTextContent('1');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByLabelText('toasts in the list')).toHaveTextContent('0');
  });

  it('closes on its close button', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('closes on Escape', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    fireEvent.keyDown(toastEl() as HTMLElement, { key: 'Escape' });
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('closes on a swipe right past 50 px, not on a shorter one', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    const swipe = (distance: number) => {
      const el = toastEl() as HTMLElement;
      fireEvent.pointerDown(el, { clientX: 100, clientY: 10, button: 0, pointerId: 1 });
      fireEvent.pointerMove(el, { clientX: 100 + distance / 2, clientY: 10, pointerId: 1 });
      fireEvent.pointerMove(el, { clientX: 100 + distance, clientY: 10, pointerId: 1 });
      fireEvent.pointerUp(el, { clientX: 100 + distance, clientY: 10, pointerId: 1 });
    };
    swipe(40);
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    swipe(60);
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('pauses while the pointer is over the notification area and resumes after', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    const viewport = document.querySelector('.toast-viewport') as HTMLElement;
    act(() => vi.advanceTimersByTime(3000));
    // Radix listens on the area's wrapper; pointerleave does not bubble, so it goes to the wrapper itself.
    const area = viewport.parentElement as HTMLElement;
    fireEvent.pointerMove(viewport);
    act(() => vi.advanceTimersByTime(10_000));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    fireEvent.pointerLeave(area);
    act(() => vi.advanceTimersByTime(1999));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    act(() => vi.advanceTimersByTime(2));
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('pauses while the window is in the background and resumes when it returns', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.blur(window);
    act(() => vi.advanceTimersByTime(60_000));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    fireEvent.focus(window);
    act(() => vi.advanceTimersByTime(4001));
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('pauses while focus is in the notification area', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    const viewport = document.querySelector('.toast-viewport') as HTMLElement;
    fireEvent.focus(viewport);
    act(() => vi.advanceTimersByTime(20_000));
    expect(toastEl()).toHaveAttribute('data-state', 'open');
    fireEvent.blur(viewport);
    act(() => vi.advanceTimersByTime(5001));
    expect(toastEl()?.getAttribute('data-state') ?? 'closed').toBe('closed');
  });

  it('F8 moves focus to the notification area', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved' }));
    screen.getByRole('button', { name: 'Page button' }).focus();
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(document.querySelector('.toast-viewport')).toHaveFocus();
  });

  it('has no icon', () => {
    renderToasts();
    act(() => void toast({ title: 'Saved', variant: 'destructive' }));
    expect(toastEl()?.querySelector('svg, img')).toBeNull();
  });
});
