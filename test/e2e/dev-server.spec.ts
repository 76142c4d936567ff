import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './test';
import { createServer, type ViteDevServer } from 'vite';

/**
 * `npm start`'s console is Vite's dev server, which serves the repository's root: without deny rules it answered
 * /.data/session-secret (the key that signs sessions), seed files with passwords and the PGlite files, to any
 * localhost page. This starts that dev server with the project's own vite.config.ts on a free port and probes it.
 */
const REPO = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DATA_DIR = path.join(REPO, '.data');

let server: ViteDevServer;
let base: { host: string; port: number };
const secret = randomBytes(24).toString('hex');
const probeNames = [`e2e-deny-probe-${secret.slice(0, 8)}`, `e2e-deny-probe-${secret.slice(0, 8)}.json`];
let createdDataDir = false;

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A GET with the path sent exactly as written: an HTTP client would normalise `%2e` and `..` away. */
function rawGet(rawPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ ...base, path: rawPath, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test.beforeAll(async () => {
  createdDataDir = !existsSync(DATA_DIR);
  await mkdir(DATA_DIR, { recursive: true });
  for (const name of probeNames) await writeFile(path.join(DATA_DIR, name), secret);
  const port = await freePort();
  server = await createServer({
    configFile: path.join(REPO, 'vite.config.ts'),
    root: REPO,
    logLevel: 'silent',
    // Only files are asked for: no dependency pre-bundling, no file watching.
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { port, strictPort: true, watch: null },
  });
  await server.listen();
  base = { host: '127.0.0.1', port };
});

test.afterAll(async () => {
  await server?.close();
  for (const name of probeNames) await rm(path.join(DATA_DIR, name), { force: true });
  if (createdDataDir) await rm(DATA_DIR, { recursive: true, force: true });
});

test.describe('the dev server', () => {
  test('serves nothing under .data/, however the path is written', async () => {
    const [bare, json] = probeNames;
    const refused = [
      `/.data/${bare}`,
      `/.data/${json}`,
      `/.data/${json}?raw`,
      `/.data/${json}?import`,
      `/.data/${json}?url`,
      `/%2edata/${json}`,
      `/src/../.data/${json}`,
      `/@fs${REPO}/.data/${json}`,
      `/@fs${REPO}/.data/${bare}?raw`,
    ];
    for (const probe of refused) {
      const response = await rawGet(probe);
      expect([403, 404], probe).toContain(response.status);
      expect(response.body, probe).not.toContain(secret);
    }
    // Paths that name no file (an encoded slash, another case) get the app's index.html, never the file.
    for (const probe of [`/.data%2f${json}`, `/.DATA/${json}`, `/.data/`]) {
      expect((await rawGet(probe)).body, probe).not.toContain(secret);
    }
  });

  test("refuses the session-signing key when there is one (npm start's)", async () => {
    const keyFile = path.join(DATA_DIR, 'session-secret');
    test.skip(!existsSync(keyFile), 'no .data/session-secret on this machine');
    const key = (await readFile(keyFile, 'utf8')).trim();
    const response = await rawGet('/.data/session-secret');
    expect(response.status).toBe(403);
    expect(response.body).not.toContain(key);
  });

  test('lets no other origin read its files, localhost ones included', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://evil.example']) {
      const response = await rawGet('/index.html', { Origin: origin });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});
