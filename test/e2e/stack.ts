/**
 * Ports and settings of the stack the end-to-end run starts: its own emulator, API and console, on ports apart from
 * the ones `npm start` uses, so both can run on one machine.
 */
export const E2E = {
  projectId: 'demo-lpa-e2e',
  emulatorPort: 9199,
  apiPort: 8797,
  consolePort: 4183,
  sessionSecret: 'e2e-session-secret-not-for-production-use-0123456789',
} as const;

export const E2E_CONSOLE_URL = `http://127.0.0.1:${E2E.consolePort}`;
export const E2E_API_URL = `http://127.0.0.1:${E2E.apiPort}`;
export const E2E_EMULATOR_URL = `http://127.0.0.1:${E2E.emulatorPort}`;
