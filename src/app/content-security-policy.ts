/**
 * What does not depend on the build's settings. Scripts only from our origin, and no `unsafe-eval` (zod runs
 * jitless: src/app/zod-mini.ts); `wasm-unsafe-eval` lets the plate reader's worker compile Tesseract's WebAssembly,
 * which is served from our origin too, and allows no JavaScript eval. Radix sets inline styles, hence 'unsafe-inline'
 * for styles.
 */
const FIXED_DIRECTIVES = {
  script: "script-src 'self' 'wasm-unsafe-eval'",
  style: "style-src 'self' 'unsafe-inline'",
  img: "img-src 'self' data:",
  font: "font-src 'self'",
  worker: "worker-src 'self' blob:",
  frame: "frame-src 'self' https://*.firebaseapp.com",
  object: "object-src 'none'",
  base: "base-uri 'self'",
  form: "form-action 'self'",
} as const;

/**
 * The console's Content-Security-Policy, carried by the build's index.html as a meta tag (vite.config.ts): network
 * only to our API, Firebase Auth (or its local emulator) and Datadog's browser intake.
 */
export function contentSecurityPolicy(config: { apiBase: string; authEmulatorUrl: string }): string {
  const origin = (url: string) => {
    try {
      return new URL(url).origin;
    } catch {
      return '';
    }
  };
  const connect = [
    "'self'",
    origin(config.apiBase),
    origin(config.authEmulatorUrl),
    'https://identitytoolkit.googleapis.com',
    'https://securetoken.googleapis.com',
    'https://browser-intake-datadoghq.com',
  ].filter(Boolean);
  const fixed = FIXED_DIRECTIVES;
  return [
    "default-src 'self'",
    fixed.script,
    fixed.style,
    fixed.img,
    fixed.font,
    `connect-src ${connect.join(' ')}`,
    fixed.worker,
    fixed.frame,
    fixed.object,
    fixed.base,
    fixed.form,
  ].join('; ');
}

/**
 * The policy the hosting sends as a header with every file (firebase.json, and `vite preview`, which reads it from
 * there). A meta tag cannot carry `frame-ancestors`, so the page could otherwise be framed (clickjacking); the header
 * also covers files the meta tag never reaches: the service worker and the enforcement worker. It leaves out what
 * depends on the build's settings (connect-src, and default-src, which would stand in for it): browsers enforce every
 * policy they are given, so the page runs under both, the meta tag's connect-src included.
 */
export const HOSTING_CONTENT_SECURITY_POLICY = [...Object.values(FIXED_DIRECTIVES), "frame-ancestors 'none'"].join(
  '; ',
);
