import { E2E } from './stack';

/**
 * The end-to-end console doubles as the production admin console: built with VITE_PRODUCTION_HOST=localhost and the
 * API with PRODUCTION_ADMIN_HOST=localhost, it is "production" when opened as localhost and not as 127.0.0.1, which
 * every other spec uses. No second build is needed to test what the production host hides and refuses.
 */
export const E2E_PRODUCTION_HOST = 'localhost';
export const E2E_PRODUCTION_CONSOLE_URL = `http://${E2E_PRODUCTION_HOST}:${E2E.consolePort}`;
