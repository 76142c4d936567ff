import { test as base } from '@playwright/test';
import { E2E_CONSOLE_URL } from './stack';

/**
 * Playwright's `test` with this worker's console as the base URL (each worker has a stack of its own,
 * test/e2e/stack.ts). Specs import `test` and everything else of Playwright's from here (ESLint holds it).
 */
export * from '@playwright/test';
export const test = base.extend({ baseURL: E2E_CONSOLE_URL });
