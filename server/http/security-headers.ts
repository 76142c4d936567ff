import { createMiddleware } from 'hono/factory';

/**
 * Headers on every API response, errors and preflights included. Responses carry session tokens and personal data,
 * so no browser or proxy may keep them (`no-store`); they are JSON and must never be sniffed into something a browser
 * would render (`nosniff`); and should one ever be opened as a page, it may load nothing and sit in no frame.
 */
export const API_RESPONSE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

/** Registered first, so that it runs last: after the routes, the error handler, CORS and the body limit. */
export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(API_RESPONSE_HEADERS)) c.res.headers.set(name, value);
});
