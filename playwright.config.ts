import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/chromium';
import { E2E, E2E_API_URL, E2E_CONSOLE_URL, E2E_EMULATOR_URL } from './test/e2e/stack';
import { E2E_MAILDEV, E2E_MAILDEV_URL } from './test/e2e/mail-catcher';
import { E2E_PRODUCTION_CONSOLE_URL, E2E_PRODUCTION_HOST } from './test/e2e/production-host';

const consoleEnv = {
  VITE_API_BASE: E2E_API_URL,
  VITE_FIREBASE_PROJECT_ID: E2E.projectId,
  VITE_FIREBASE_API_KEY: 'demo-api-key',
  VITE_FIREBASE_AUTH_EMULATOR_URL: E2E_EMULATOR_URL,
  // An open console checks its permissions every 5 s instead of every minute (users-roles.spec.ts waits for it).
  VITE_PERMISSIONS_REFRESH_MS: '5000',
  // The same build serves as the production admin console when opened as http://localhost:<port> (the tests
  // otherwise use 127.0.0.1): database-copy.spec.ts checks that Database Copy is absent and refused there.
  VITE_PRODUCTION_HOST: E2E_PRODUCTION_HOST,
};

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    baseURL: E2E_CONSOLE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
  webServer: [
    {
      command: `npx firebase emulators:start --only auth --project ${E2E.projectId} --config test/e2e/firebase.e2e.json`,
      url: `${E2E_EMULATOR_URL}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'npx tsx server/main.ts',
      url: `${E2E_API_URL}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(E2E.apiPort),
        HOST: '127.0.0.1',
        PGLITE_DIR: 'memory://',
        DATABASE_URL: '',
        DEV_SEED: '1',
        // 30 days of payment history at 40 a location-day (~7,000): the officer's expired transactions then still fit
        // one sync page of 2,000, which enforcement-sync.spec.ts counts on (200 a day would make ~5,400 of them).
        DEV_SEED_HISTORY_PER_DAY: '40',
        LPA_DATA_DIR: 'test-results/e2e-data',
        FIREBASE_PROJECT_ID: E2E.projectId,
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${E2E.emulatorPort}`,
        SESSION_SECRET: E2E.sessionSecret,
        CORS_ORIGINS: `${E2E_CONSOLE_URL},${E2E_PRODUCTION_CONSOLE_URL}`,
        PRODUCTION_ADMIN_HOST: E2E_PRODUCTION_HOST,
        // Mailing goes to the run's own MailDev (below), at up to 200 messages a second.
        MAIL_SMTP_HOST: '127.0.0.1',
        MAIL_SMTP_PORT: String(E2E_MAILDEV.smtpPort),
        MAIL_RATE_PER_SECOND: '200',
      },
    },
    {
      command: `npx maildev --ip 127.0.0.1 --smtp ${E2E_MAILDEV.smtpPort} --web ${E2E_MAILDEV.webPort} --silent`,
      url: `${E2E_MAILDEV_URL}/email`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `npx vite build --mode e2e --outDir dist-e2e && npx vite preview --mode e2e --outDir dist-e2e --port ${E2E.consolePort} --strictPort`,
      url: E2E_CONSOLE_URL,
      reuseExistingServer: false,
      timeout: 240_000,
      env: consoleEnv,
    },
  ],
});
