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

/**
 * The one page the API serves, the development API reference (server/api-reference/page.ts): its own script, styles
 * and the document from this origin only (no CDN, nothing inline), "Try it out" calls to this origin, Swagger UI's
 * icons as data: images.
 */
export const REFERENCE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Registered first, so that it runs last: after the routes, the error handler, CORS and the body limit. A response
 * may swap the policy for the reference page's and for nothing else.
 */
export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  const referencePage = c.res.headers.get('Content-Security-Policy') === REFERENCE_PAGE_CSP;
  for (const [name, value] of Object.entries(API_RESPONSE_HEADERS)) c.res.headers.set(name, value);
  if (referencePage) c.res.headers.set('Content-Security-Policy', REFERENCE_PAGE_CSP);
});
