import { useSyncExternalStore } from 'react';

/** Spec §2, §9: one toast at a time, hidden after 5000 ms, kept (closed) for 1,000,000 ms before removal. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = 'default' | 'destructive';

export interface ToastItem {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

let toasts: ToastItem[] = [];
/**
 * Toasts raised before the toast region was on screen (it is imported at idle time, src/ui/idle-import.ts), oldest
 * first. Once it is there they are shown in that order, one at a time, each for its full duration.
 */
let waiting: ToastItem[] = [];
let regionShown = false;
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/** The one toast helper of the console: shows a notification, replacing whatever toast was showing. */
export function toast(input: { title: string; description?: string; variant?: ToastVariant }): number {
  const id = nextId++;
  const item: ToastItem = { id, variant: 'default', ...input, open: true };
  if (!regionShown) {
    waiting.push(item);
    return id;
  }
  // Like the toast on screen, any still waiting are older than this one: it replaces them all.
  waiting = [];
  show(item);
  return id;
}

function show(item: ToastItem): void {
  publish([item, ...toasts].slice(0, TOAST_LIMIT));
}

/**
 * The toast region calls this once it is on screen: the toasts raised before are shown, the oldest first. Returns
 * what to call when the region goes (new toasts wait again).
 */
export function toastRegionShown(): () => void {
  regionShown = true;
  // Mounted again (StrictMode does so in development), it keeps the toast already on screen.
  const next = toasts.some((item) => item.open) ? undefined : waiting.shift();
  if (next) show(next);
  return () => {
    regionShown = false;
  };
}

/** Closes a toast; it leaves the list after the removal delay (Radix has already animated it out by then). */
export function dismissToast(id: number): void {
  if (waiting.some((item) => item.id === id)) {
    waiting = waiting.filter((item) => item.id !== id);
    return;
  }
  const next = regionShown && toasts.some((item) => item.id === id && item.open) ? waiting.shift() : undefined;
  publish(toasts.map((item) => (item.id === id ? { ...item, open: false } : item)));
  if (next) show(next);
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      publish(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
    () => toasts,
  );
}

/** For tests: forget every toast and timer. */
export function resetToasts(): void {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  waiting = [];
  publish([]);
}
