import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build, type PluginOption } from 'vite';
import { BENCH_DIR, RESULTS_DIR } from './report';

/** Where `buildBenchPages` writes the bench pages (under bench/results/, which git and ESLint ignore). */
export const BENCH_DIST = path.join(RESULTS_DIR, 'dist');

/** Builds every page under bench/pages with bench/vite.config.ts (the app's own build is untouched). */
export async function buildBenchPages(): Promise<number> {
  const started = performance.now();
  await build({ configFile: path.join(BENCH_DIR, 'vite.config.ts'), logLevel: 'warn' });
  return performance.now() - started;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a directory on a free loopback port. Every response is cross-origin isolated (COOP + COEP), so
 * performance.now() in the page and its workers has 5 µs resolution instead of 100 µs.
 */
export async function serveStatic(root: string = BENCH_DIST): Promise<StaticServer> {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end();
        return;
      }
      const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
      const info = file.startsWith(root) ? await stat(file).catch(() => null) : null;
      if (info === null || !info.isFile()) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
        'cache-control': 'no-store',
      });
      createReadStream(file).pipe(response);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * Builds only the named pages (bench/pages/<name>.html) into their own directory, with the given plugins (e.g. React's,
 * as the app's build has). A benchmark that uses this leaves bench/results/dist, which `buildBenchPages` empties, to
 * the others: two benchmarks run at the same time cannot delete each other's pages.
 */
export async function buildBenchPagesInto(
  names: readonly string[],
  outDir: string,
  plugins: PluginOption[] = [],
  options: { sourcemap?: boolean; minify?: boolean } = {},
): Promise<number> {
  const started = performance.now();
  const pagesDir = path.join(BENCH_DIR, 'pages');
  await build({
    configFile: false,
    root: pagesDir,
    base: './',
    logLevel: 'warn',
    plugins,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: options.sourcemap ?? false,
      minify: options.minify ?? true,
      rolldownOptions: { input: Object.fromEntries(names.map((name) => [name, path.join(pagesDir, `${name}.html`)])) },
    },
    worker: { format: 'es' },
  });
  return performance.now() - started;
}

export { freePort } from './free-port';
