import { useSyncExternalStore } from 'react';

/**
 * Parts of the console that no page needs in order to become usable (Radix's toast region and tooltips, ~25 KB gz
 * with floating-ui) are imported when the browser is idle after the first page is on screen, so that neither their
 * download nor their parsing delays it (docs/decisions/0013-idle-time-imports.md). Until a module has
 * loaded, whoever renders it renders without it.
 */

/** Idle time is asked for this long after the first page is usable: the page's own follow-up work goes first. */
export const IDLE_IMPORT_SETTLE_MS = 300;
/** Then the import starts at the latest this long after idle time was asked for. */
export const IDLE_IMPORT_TIMEOUT_MS = 2_000;
/** Where the browser has no `requestIdleCallback` (Safari, jsdom), the import waits this long instead. */
export const IDLE_IMPORT_FALLBACK_MS = 300;
/** Should the app never say that its page is usable (it failed to render), it is taken as usable this long after. */
export const IDLE_IMPORT_HOLD_MAX_MS = 10_000;

let releaseHold: () => void = () => undefined;
const released = new Promise<void>((resolve) => (releaseHold = resolve));
const declared: Promise<unknown>[] = [];

/** The app calls this once its first page is usable (main.tsx: the router's first render); idle imports wait for it. */
export function releaseIdleImports(): void {
  releaseHold();
}

/** Settles when every idle import declared so far has loaded: for tests that exercise the loaded parts. */
export function idleImportsSettled(): Promise<unknown> {
  return Promise.all(declared);
}

const pageSettled = () =>
  new Promise<void>((resolve) => {
    const holdMax = setTimeout(resolve, IDLE_IMPORT_HOLD_MAX_MS);
    void released.then(() => {
      clearTimeout(holdMax);
      resolve();
    });
  }).then(() => new Promise<void>((resolve) => setTimeout(resolve, IDLE_IMPORT_SETTLE_MS)));

/**
 * Calls `then` when the browser is next idle, `timeoutMs` at the latest; where there is no `requestIdleCallback`
 * (Safari, jsdom), after `fallbackMs`.
 */
export function whenBrowserIdle(then: () => void, timeoutMs = IDLE_IMPORT_TIMEOUT_MS, fallbackMs = IDLE_IMPORT_FALLBACK_MS): void {
  if (typeof globalThis.requestIdleCallback === 'function') {
    globalThis.requestIdleCallback(() => then(), { timeout: timeoutMs });
  } else {
    setTimeout(then, fallbackMs);
  }
}

/** Runs `attempt`; should it fail (a download, typically), warns and runs it again once the browser is back online. */
export function retryWhenOnline(attempt: () => Promise<unknown>, failure: string): void {
  attempt().catch((error: unknown) => {
    console.warn(failure, error);
    globalThis.addEventListener?.('online', () => retryWhenOnline(attempt, failure), { once: true });
  });
}

const browserIdle = () => new Promise<void>((resolve) => whenBrowserIdle(resolve));

export interface IdleImport<T> {
  /** The module once it has loaded, else null. */
  current(): T | null;
  subscribe(listener: () => void): () => void;
}

/**
 * Declares a module to import at idle time; the import starts by itself once the page is usable and the browser idle,
 * whether or not anything has rendered the module yet (a tooltip should be ready when the pointer gets there). A failed
 * download is tried again when the browser comes back online.
 */
export function importWhenIdle<T>(load: () => Promise<T>): IdleImport<T> {
  let module: T | null = null;
  const listeners = new Set<() => void>();
  let announce: (loaded: T) => void = () => undefined;
  declared.push(new Promise<T>((resolve) => (announce = resolve)));
  const attempt = () =>
    load().then((loaded) => {
      module = loaded;
      announce(loaded);
      for (const listener of listeners) listener();
    });
  void pageSettled()
    .then(browserIdle)
    .then(() => retryWhenOnline(attempt, 'An idle-time import failed; it is tried again when the browser is back online'));
  return {
    current: () => module,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The module of an idle import, or null until it has loaded (re-renders when it arrives). */
export function useIdleImport<T>(idleImport: IdleImport<T>): T | null {
  return useSyncExternalStore(idleImport.subscribe, idleImport.current, idleImport.current);
}
