/**
 * How this project launches Debian's Chromium (a Playwright browser download is not possible here): the flags
 * DEVELOPERS.md requires, used by the end-to-end tests and the benchmarks alike.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The end-to-end tests' browser: Debian's headless shell, the same engine without the desktop browser around it
 * (Chromium's old headless mode, Playwright's own default for headless runs). On locations.spec.ts, one worker, it took
 * 0.84× the CPU and the time of the full browser (170 against 203 core-seconds, 156 against 186 s, one pair,
 * 2026-11-29). CHROMIUM_PATH overrides it.
 */
export const E2E_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
