/**
 * The end-to-end run's MailDev (SMTP catcher with a REST API), on ports apart from the 1025/1080 of `npm start`.
 * mailing.spec.ts reads what arrived through GET /email and empties it with DELETE /email/all.
 */
export const E2E_MAILDEV = { smtpPort: 1125, webPort: 1180 } as const;
export const E2E_MAILDEV_URL = `http://127.0.0.1:${E2E_MAILDEV.webPort}`;
