import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/db';
import { API_RESPONSE_HEADERS, REFERENCE_PAGE_CSP, securityHeaders } from '../http/security-headers';
import { createTestApi } from '../testing/test-api';
import { API_REFERENCE_PATH } from './page';

const noDatabase = {
  query: () => Promise.reject(new Error('the reference page needs no database')),
} as unknown as Db;
const apiWithPage = (apiReferencePage: boolean) => createTestApi(noDatabase, { apiReferencePage }).app;
const STRICT_CSP = API_RESPONSE_HEADERS['Content-Security-Policy'];

describe('the API reference page', () => {
  it('is a page whose scripts and styles all come from this origin, under the page policy', async () => {
    const response = await apiWithPage(true).request(API_REFERENCE_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(response.headers.get('Content-Security-Policy')).toBe(REFERENCE_PAGE_CSP);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      // The policy allows no inline script: each one must be a file of this origin, with nothing between the tags.
      expect(attributes).toMatch(new RegExp(`src="${API_REFERENCE_PATH}/`));
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style|style="|https?:\/\//);
    expect(html).toContain('lang="en"');
  });

  it('serves each file the page names, with a type nosniff accepts, from the npm package', async () => {
    const app = apiWithPage(true);
    const html = await (await app.request(API_REFERENCE_PATH)).text();
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, file]) => file ?? '');
    expect(files.length).toBeGreaterThanOrEqual(4);
    const types: Record<string, RegExp> = { css: /^text\/css/, js: /^text\/javascript/, png: /^image\/png$/ };
    for (const file of files) {
      const response = await app.request(file);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('Content-Type'), file).toMatch(types[file.split('.').pop() ?? ''] ?? /^$/);
      expect(response.headers.get('Content-Security-Policy'), file).toBe(REFERENCE_PAGE_CSP);
      expect((await response.arrayBuffer()).byteLength, file).toBeGreaterThan(100);
    }
  });

  it('points Swagger UI at this API\'s own document and never at its outside validator', async () => {
    const start = await (await apiWithPage(true).request(`${API_REFERENCE_PATH}/start.js`)).text();
    expect(start).toContain("url: '/openapi.json'");
    expect(start).toContain('validatorUrl: null');
  });

  it('is absent unless asked for (production), answering the API\'s own 404 under the strict policy', async () => {
    const response = await apiWithPage(false).request(API_REFERENCE_PATH);
    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Security-Policy')).toBe(STRICT_CSP);
    expect((await response.json()) as unknown).toMatchObject({ success: false });
  });

  it('leaves the API\'s own responses, the document included, under the strict policy', async () => {
    const response = await apiWithPage(true).request('/openapi.json');
    expect(response.headers.get('Content-Security-Policy')).toBe(STRICT_CSP);
  });

  it('is the only policy a response may keep: any other is replaced by the strict one', async () => {
    const app = new Hono();
    app.use('*', securityHeaders);
    app.get('/page', (c) => c.body('', 200, { 'Content-Security-Policy': REFERENCE_PAGE_CSP }));
    app.get('/other', (c) => c.body('', 200, { 'Content-Security-Policy': "script-src 'unsafe-inline'" }));
    expect((await app.request('/page')).headers.get('Content-Security-Policy')).toBe(REFERENCE_PAGE_CSP);
    expect((await app.request('/other')).headers.get('Content-Security-Policy')).toBe(STRICT_CSP);
  });

  it('is not an operation of the API', async () => {
    const document = (await (await apiWithPage(true).request('/openapi.json')).json()) as { paths: object };
    expect(Object.keys(document.paths).filter((path) => path.startsWith(API_REFERENCE_PATH))).toEqual([]);
  });
});
