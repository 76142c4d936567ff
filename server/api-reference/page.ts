import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ApiApp } from '../http/api-app';
import { REFERENCE_PAGE_CSP } from '../http/security-headers';

/** Where the page lives; its files sit under it, all on the API's own origin. */
export const API_REFERENCE_PATH = '/reference';

// The initializer is a file of its own because the policy forbids inline scripts. validatorUrl: null stops Swagger
// UI from sending the document to validator.swagger.io (its only outside call); without deep links an operation's
// path is plain text, not a link inside its expand button (axe: nested-interactive).
const START_SCRIPT = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: false,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: fillInLandmarks,
  });
});

// What axe asks for and Swagger UI's layout lacks: the title block in a landmark, and headings without a skipped
// level: the page's own h1 (in the banner), then the document's title (an h1 of Swagger UI's) at level 2 above the
// tags' h3. Swagger UI renders these nodes once and keeps them.
function fillInLandmarks() {
  var info = document.querySelector('.swagger-ui .information-container');
  if (info) {
    info.setAttribute('role', 'region');
    info.setAttribute('aria-label', 'About the API');
  }
  var title = document.querySelector('.swagger-ui .info h1.title');
  if (title) title.setAttribute('aria-level', '2');
}
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Lightning Pay Admin API reference</title>
    <link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon.png">
    <link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${API_REFERENCE_PATH}/page.css">
  </head>
  <body>
    <header><h1 class="visually-hidden">Lightning Pay Admin API reference</h1></header>
    <div id="swagger-ui"></div>
    <script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${API_REFERENCE_PATH}/start.js"></script>
  </body>
</html>
`;

const require = createRequire(import.meta.url);
/**
 * A file found and read on first request, then kept: swagger-ui-dist is a development dependency, so an API without
 * the page neither loads its 1.9 MB nor needs it installed.
 */
const fileOnce = (locate: () => string) => {
  let bytes: Promise<Buffer> | undefined;
  return () => (bytes ??= readFile(locate()));
};
const fromPackage = (name: string) => fileOnce(() => require.resolve(`swagger-ui-dist/${name}`));
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const FILES: Record<string, { type: string; read: () => Promise<Buffer | string> }> = {
  'start.js': { type: JS, read: async () => START_SCRIPT },
  'swagger-ui-bundle.js': { type: JS, read: fromPackage('swagger-ui-bundle.js') },
  'swagger-ui.css': { type: CSS, read: fromPackage('swagger-ui.css') },
  'page.css': { type: CSS, read: fileOnce(() => fileURLToPath(new URL('page.css', import.meta.url))) },
  'favicon.png': { type: 'image/png', read: fromPackage('favicon-32x32.png') },
};

const pageResponse = (body: Buffer | string, type: string) =>
  new Response(typeof body === 'string' ? body : new Uint8Array(body), {
    // securityHeaders keeps this policy (and only this one) in place of the API's "load nothing".
    headers: { 'Content-Type': type, 'Content-Security-Policy': REFERENCE_PAGE_CSP },
  });

/**
 * A readable reference of this API (Swagger UI over /openapi.json, from the swagger-ui-dist package, no CDN), for
 * development only: createApp mounts it when asked, and main.ts does not with NODE_ENV=production, so a production API
 * keeps answering JSON alone. The routes are not operations of the API and stay out of the OpenAPI document.
 */
export function registerApiReferencePage(app: ApiApp): void {
  app.get(API_REFERENCE_PATH, () => pageResponse(PAGE, 'text/html; charset=utf-8'));
  for (const [name, file] of Object.entries(FILES)) {
    app.get(`${API_REFERENCE_PATH}/${name}`, async () => pageResponse(await file.read(), file.type));
  }
}
