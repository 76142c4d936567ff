import path from 'node:path';
import { defineConfig } from '@playwright/test';
import e2e from '../../playwright.config';

/**
 * `npm run docs:screenshots`: the user guide's pictures (docs/guide/images/), taken from the running product on the
 * end-to-end stack (same emulator, API, seed and console build), so they are regenerated instead of going stale.
 * Kept out of `npm run test:e2e` (its testDir is test/e2e), so CI does not pay for it.
 */
const root = path.resolve(import.meta.dirname, '../..');

export default defineConfig({
  ...e2e,
  testDir: '.',
  testMatch: 'screenshots.spec.ts',
  outputDir: path.join(root, 'test-results/docs-screenshots'),
  retries: 0,
  // One worker, so one stack (test/e2e/global-setup.ts starts one a worker).
  workers: 1,
  timeout: 180_000,
  reporter: [['list']],
  // 1280 × 800 at one device pixel a CSS pixel: the guide's width, and small files.
  projects: (e2e.projects ?? []).map((project) => ({
    ...project,
    use: { ...project.use, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  })),
});
