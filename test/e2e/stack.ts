/**
 * The stacks the end-to-end run starts (test/e2e/global-setup.ts): one per Playwright worker, each its own Auth
 * emulator, API with its own in-memory database and seed, MailDev and console, so workers never see each other's
 * data. Ports are apart from the ones `npm start` uses, so both can run on one machine; stack n adds 10 × n to each.
 *
 * A worker finds its own stack through TEST_PARALLEL_INDEX, which Playwright sets in every worker process (0 to
 * workers − 1; a worker started again after a failure keeps its index, and so its stack). In the runner's own
 * process (playwright.config.ts, global setup) it is unset: stack 0.
 */
export interface Stack {
  index: number;
  projectId: string;
  emulatorPort: number;
  emulatorHubPort: number;
  emulatorLoggingPort: number;
  apiPort: number;
  consolePort: number;
  mailSmtpPort: number;
  mailWebPort: number;
  sessionSecret: string;
  /** Where the API keeps extra seed users (LPA_DATA_DIR): specs add accounts by writing a file there. */
  dataDir: string;
  /** The console build this stack serves: the run builds stack 0's, and the others are copies with their addresses. */
  consoleDir: string;
}

/** At most this many stacks: their ports (four digits each) stay clear of one another and of `npm start`'s. */
export const MAX_STACKS = 8;

export function stackFor(index: number): Stack {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_STACKS) throw new Error(`no end-to-end stack ${index}`);
  const step = 10 * index;
  return {
    index,
    projectId: 'demo-lpa-e2e',
    emulatorPort: 9199 + step,
    emulatorHubPort: 4410 + step,
    emulatorLoggingPort: 4510 + step,
    apiPort: 8797 + step,
    consolePort: 4183 + step,
    mailSmtpPort: 1125 + step,
    mailWebPort: 1180 + step,
    sessionSecret: 'e2e-session-secret-not-for-production-use-0123456789',
    dataDir: index === 0 ? 'test-results/e2e-data' : `test-results/e2e-data-${index}`,
    consoleDir: index === 0 ? 'dist-e2e' : `dist-e2e-${index}`,
  };
}

export const stackUrls = (stack: Stack) => ({
  console: `http://127.0.0.1:${stack.consolePort}`,
  api: `http://127.0.0.1:${stack.apiPort}`,
  emulator: `http://127.0.0.1:${stack.emulatorPort}`,
  mailWeb: `http://127.0.0.1:${stack.mailWebPort}`,
});

/** This process's stack. */
export const E2E = stackFor(Number(process.env.TEST_PARALLEL_INDEX ?? 0));

const urls = stackUrls(E2E);
export const E2E_CONSOLE_URL = urls.console;
export const E2E_API_URL = urls.api;
export const E2E_EMULATOR_URL = urls.emulator;
