import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, type Page } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/chromium';
import { freePort } from './free-port';

export { CHROMIUM_PATH };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A browser whose storage is on disk, as on an officer's phone, and a second client for browser-level sessions. */
export interface OnDiskChromium {
  /** The profile's own context: IndexedDB in files under a temporary user-data folder. */
  context: BrowserContext;
  /** The same browser over CDP, for what needs a `Browser` (e.g. `attachToWorker`); its pages are the context's. */
  browser: Browser;
  version: string;
  /** Closes the browser and deletes the profile folder. */
  close(): Promise<void>;
}

/**
 * Launches Chromium with a profile on disk. `launchChromium()`'s contexts are off the record, and from Chromium 150
 * their IndexedDB is an in-memory store whose writes slow down as it grows (2,000 puts took 96 ms into an empty store
 * and 715 ms into one of 98,000 rows, against a flat ~100 ms on disk: BENCHMARKS.md at f3b7360, "Sync"), which no officer's phone
 * sees. A persistent context has no `browser()`, so the same browser is also reached over a debugging port.
 */
export async function launchChromiumOnDisk(contextOptions: BrowserContextOptions = {}): Promise<OnDiskChromium> {
  const profile = await mkdtemp(join(tmpdir(), 'lpa-bench-profile-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    ...contextOptions,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${port}`,
      '--remote-debugging-address=127.0.0.1',
      // BENCH_JS_FLAGS=--trace-gc (with DEBUG=pw:browser to see the browser's output): V8 flags for every page and worker.
      ...(process.env.BENCH_JS_FLAGS ? [`--js-flags=${process.env.BENCH_JS_FLAGS}`] : []),
    ],
  });
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    return {
      context,
      browser,
      version: browser.version(),
      close: async () => {
        await context.close().catch(() => undefined);
        await browser.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/** Chromium's version string, e.g. "156.0.7490.0". */
export function chromiumVersion(browser: Browser): string {
  return browser.version();
}

export interface CpuThrottle {
  /** 1 = full speed, 6 = six times slower. */
  set(rate: number): Promise<void>;
  /** Back to full speed and release the DevTools session (overrides last only as long as the session). */
  release(): Promise<void>;
}

/**
 * Slows the page's main thread through the DevTools protocol (`Emulation.setCPUThrottlingRate`). It does not slow
 * dedicated workers (Chromium 156): to measure worker code throttled, run the same module on the page.
 */
export async function cpuThrottle(page: Page): Promise<CpuThrottle> {
  const session: CDPSession = await page.context().newCDPSession(page);
  return {
    set: async (rate) => {
      await session.send('Emulation.setCPUThrottlingRate', { rate });
    },
    release: async () => {
      await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await session.detach();
    },
  };
}

/** Forwards the page's console and errors to the terminal, prefixed, so a bench run shows what went wrong. */
export function echoPageConsole(page: Page, prefix: string): void {
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.error(`${prefix} ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => console.error(`${prefix} page error: ${error.message}`));
}

/** A DevTools session on one dedicated worker (Playwright opens CDP sessions on pages and frames only). */
export interface WorkerCdpSession {
  /** The worker's URL as DevTools lists it. */
  url: string;
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  detach(): Promise<void>;
}

/**
 * Attaches to the first dedicated worker whose URL contains `urlPart`, over a browser-level CDP session, and relays
 * commands with `Target.sendMessageToTarget` (the non-flattened protocol: Playwright's CDPSession cannot address a
 * child session by id). Works in Chromium 156; e.g. `Runtime.getHeapUsage`, `HeapProfiler.collectGarbage`.
 */
export async function attachToWorker(browser: Browser, urlPart: string, timeoutMs = 30_000): Promise<WorkerCdpSession> {
  const browserSession = await browser.newBrowserCDPSession();
  const { targetInfos } = await browserSession.send('Target.getTargets');
  const target = targetInfos.find((info) => info.type === 'worker' && info.url.includes(urlPart));
  if (target === undefined) {
    await browserSession.detach();
    throw new Error(`no worker target whose URL contains ${urlPart}`);
  }
  const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  browserSession.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return; // an event of the worker's session
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  return {
    url: target.url,
    send: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method} on the worker got no answer in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        browserSession
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
          .catch((error: unknown) => {
            clearTimeout(timer);
            pending.delete(id);
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      }),
    detach: async () => {
      await browserSession.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      await browserSession.detach();
    },
  };
}
