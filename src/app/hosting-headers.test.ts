import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, HOSTING_CONTENT_SECURITY_POLICY } from './content-security-policy';

interface HostingConfig {
  hosting: { ignore: string[]; headers: { source: string; headers: { key: string; value: string }[] }[] };
}
const firebase = JSON.parse(readFileSync(new URL('../../firebase.json', import.meta.url), 'utf8')) as HostingConfig;
const everyFile = Object.fromEntries(
  firebase.hosting.headers.find((rule) => rule.source === '**')!.headers.map(({ key, value }) => [key, value]),
);
const directives = (policy: string) => policy.split(';').map((directive) => directive.trim());

describe('production hosting (firebase.json)', () => {
  it("sends the console's policy as a header, with frame-ancestors 'none' that a meta tag cannot carry", () => {
    expect(everyFile['Content-Security-Policy']).toBe(HOSTING_CONTENT_SECURITY_POLICY);
    expect(directives(HOSTING_CONTENT_SECURITY_POLICY)).toContain("frame-ancestors 'none'");
    expect(everyFile['X-Frame-Options']).toBe('DENY');
    expect(everyFile['X-Content-Type-Options']).toBe('nosniff');
  });

  it('agrees with the meta policy on every directive both carry, and never allows JavaScript eval', () => {
    const meta = directives(contentSecurityPolicy({ apiBase: 'https://api.example.com', authEmulatorUrl: '' }));
    for (const directive of directives(HOSTING_CONTENT_SECURITY_POLICY)) {
      if (!directive.startsWith('frame-ancestors')) expect(meta).toContain(directive);
    }
    expect(`${meta.join(';')};${HOSTING_CONTENT_SECURITY_POLICY}`).not.toMatch(/'unsafe-eval'/);
    // WebAssembly compilation only (the plate reader's Tesseract), in both: the worker runs under the header's policy.
    for (const policy of [meta, directives(HOSTING_CONTENT_SECURITY_POLICY)]) {
      expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    }
    // Without connect-src and default-src the header leaves the API's origin to the meta policy, which has it.
    expect(HOSTING_CONTENT_SECURITY_POLICY).not.toMatch(/default-src|connect-src/);
  });

  it('does not publish source maps', () => {
    expect(firebase.hosting.ignore).toContain('**/*.map');
  });
});
