/**
 * How this project launches Debian's Chromium (a Playwright browser download is not possible here): the flags
 * DEVELOPERS.md requires, used by the end-to-end tests and the benchmarks alike.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
