/**
 * The console's Content-Security-Policy. Scripts only from our origin; network only to our API, Firebase Auth
 * (or its local emulator) and Datadog's browser intake. Radix sets inline styles, hence 'unsafe-inline' for styles.
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
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    "frame-src 'self' https://*.firebaseapp.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
