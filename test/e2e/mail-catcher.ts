import { E2E, stackUrls } from './stack';

/**
 * This worker's MailDev (SMTP catcher with a REST API; test/e2e/stack.ts), on ports apart from the 1025/1080 of
 * `npm start`. mailing.spec.ts reads what arrived through GET /email and empties it with DELETE /email/all.
 */
export const E2E_MAILDEV_URL = stackUrls(E2E).mailWeb;
