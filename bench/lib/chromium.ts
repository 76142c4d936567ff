import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/chromium';

export { CHROMIUM_PATH };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
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
