import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from './test/chromium';
import { MAX_STACKS } from './test/e2e/stack';

/**
 * Each worker runs its spec files against a stack of its own (test/e2e/stack.ts), which the global setup starts before
 * the first test: E2E_WORKERS of them, 2 by default (docs/development.md "End-to-end tests": the run's time and the
 * machine's two cores). A file's tests run in order in one worker, as they were written to.
 */
const workers = Math.min(Number(process.env.E2E_WORKERS ?? 2), MAX_STACKS);

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: path.join(import.meta.dirname, 'test/e2e/global-setup.ts'),
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  // Two minutes: the axe runs over a screen's every state took up to 53 s a test with two workers sharing two cores.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    // baseURL is each worker's own console (test/e2e/test.ts).
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});
