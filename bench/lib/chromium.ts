import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';

/** Debian's Chromium: Playwright cannot download its own browser here. */
export const CHROMIUM_PATH = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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
