/**
 * The screen bench's JavaScript figures: the app built for production (vite build, the app's own vite.config.ts, into a
 * temporary directory with the manifest on), served with `vite preview` on a free port; /login is loaded in Chromium
 * (service workers blocked) and every JS response until load + network idle is gzipped here. /list needs a signed-in
 * officer, so its JS is the static-import closure, from the build manifest, of the entry plus the chunks of the route
 * components on the way to /list (__root, _authenticated, list); /login's is computed the same way and checked against
 * what the browser loaded. The enforcement worker (created after sign-in, off the critical path) is reported on its
 * own; where the bytes come from is read from the source maps.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions } from '@playwright/test';
import { preview } from 'vite';
import { chunkSize, gzipBytes, KB, packageShares, readManifest, type ChunkSize, type PackageShare } from '../lib/bundle';
import { echoPageConsole } from '../lib/chromium';
import { BENCH_DIR, formatTable } from '../lib/report';
import { buildConsole, closureSizes, measureAdminRoutes, ROUTE_CHAINS, routeRoots, type PageScripts } from '../lib/route-scripts';
import { freePort } from '../lib/serve';
import { round } from '../lib/stats';

const REPO = path.dirname(BENCH_DIR);
/** How long /login is watched after its form is usable, for the idle-time imports that follow (reported apart). */
const LATE_IMPORTS_WAIT_MS = 8000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface LoadedScript {
  url: string;
  file: string;
  bytes: number;
  gzBytes: number;
}

export interface BundleReport {
  buildMs: number;
  login: PageScripts & {
    /** What the browser requested for /login before its form could be used (the E-mail field visible and enabled). */
    loaded: LoadedScript[];
    loadedGzBytes: number;
    /** What it requested after that, until network idle: loaded off the critical path (idle-time imports). */
    afterInteractive: LoadedScript[];
    /** The manifest closure and the browser agree on the files. */
    agrees: boolean;
    interactiveMs: number;
  };
  list: PageScripts;
  /** Each admin route's static closure (entry, __root, _authenticated and the route's render chunks). */
  adminRoutes: (PageScripts & { route: string })[];
  worker: ChunkSize[];
  css: ChunkSize[];
  listPackages: PackageShare[];
  loginPackages: PackageShare[];
  /** Chunks the app can load later (dynamic imports not needed to render /list), for the record. */
  otherChunks: number;
}

/** The admin routes' static closures, heaviest first (printed); the heaviest one's weight is the figure with a budget. */
export function heaviestAdminRoute(bundles: BundleReport) {
  const routes = [...bundles.adminRoutes].sort((a, b) => b.gzBytes - a.gzBytes);
  console.log(
    formatTable(
      ['admin route (static closure)', 'KB', 'KB gz'],
      routes.map((route) => [route.route, round(route.bytes / KB), round(route.gzBytes / KB)]),
    ),
  );
  return {
    name: routes[0]?.route ?? 'none',
    gzKB: (routes[0]?.gzBytes ?? 0) / KB,
    routes: routes.map((route) => ({ route: route.route, gzKB: round(route.gzBytes / KB) })),
  };
}

export async function measureBundles(browser: Browser, options: { phone: BrowserContextOptions; keepBuild: boolean }): Promise<BundleReport> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'lpa-bench-screen-app-'));
  try {
    const routeTree = path.join(REPO, 'src', 'routeTree.gen.ts');
    const routeTreeBefore = await readFile(routeTree, 'utf8').catch(() => null);
    const buildStarted = performance.now();
    // Hidden source maps: the package attribution reads them.
    await buildConsole(REPO, outDir, { sourcemap: 'hidden' });
    const buildMs = performance.now() - buildStarted;
    if (routeTreeBefore !== null && (await readFile(routeTree, 'utf8')) !== routeTreeBefore) {
      console.error('note: the build regenerated src/routeTree.gen.ts (TanStack Router plugin): it was out of date with src/routes');
    }
    const manifest = await readManifest(outDir);
    const login = await closureSizes(outDir, manifest, routeRoots(manifest, ROUTE_CHAINS.login));
    const list = await closureSizes(outDir, manifest, routeRoots(manifest, ROUTE_CHAINS.list));
    const adminRoutes = await measureAdminRoutes(REPO, outDir, manifest);
    const assets = await readdir(path.join(outDir, 'assets'));
    const worker = await Promise.all(
      assets.filter((file) => /^enforcement\.worker-.*\.js$/.test(file)).map((file) => chunkSize(outDir, file, `assets/${file}`)),
    );
    const css = await Promise.all(assets.filter((file) => file.endsWith('.css')).map((file) => chunkSize(outDir, file, `assets/${file}`)));
    const listPackages = await packageShares(outDir, list.chunks);
    const loginPackages = await packageShares(outDir, login.chunks);
    const otherChunks = Object.values(manifest).filter((chunk) => !list.chunks.some((c) => c.file === chunk.file)).length;

    // /login in the browser: every JS response until the page is interactive (load, the form shown, network idle).
    const port = await freePort();
    const server = await preview({
      configFile: false,
      root: REPO,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port, strictPort: true, open: false },
    });
    const origin = `http://127.0.0.1:${port}`;
    const context = await browser.newContext({ ...options.phone, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      echoPageConsole(page, '[login page]');
      // Each script is sorted by when the page requested it (Resource Timing), before or after the form was usable: the
      // first frame painted with an enabled E-mail field, stamped in the page (polling from here would be late).
      // A string, not a function: tsx's transform would add helpers the page does not have.
      await context.addInitScript(`
        const observer = new MutationObserver(() => {
          if (document.querySelector('input[type="email"]:not([disabled])') === null) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => { window.__formUsableAt = performance.now(); };
            channel.port2.postMessage(null);
          });
        });
        observer.observe(document, { childList: true, subtree: true });
      `);
      const bodies: Promise<LoadedScript | null>[] = [];
      page.on('response', (response) => {
        const url = response.url();
        if (response.request().resourceType() !== 'script' && !new URL(url).pathname.endsWith('.js')) return;
        bodies.push(
          response.body().then(
            (body) => ({ url, file: new URL(url).pathname.replace(/^\//, ''), bytes: body.length, gzBytes: gzipBytes(body) }),
            () => null,
          ),
        );
      });
      await page.goto(`${origin}/login`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __formUsableAt?: number }).__formUsableAt !== undefined);
      // Idle-time imports start up to a few seconds after the page is usable (src/ui/idle-import.ts, src/app/firebase.ts).
      await sleep(LATE_IMPORTS_WAIT_MS);
      await page.waitForLoadState('networkidle');
      const timing = await page.evaluate(() => ({
        usableAt: (window as unknown as { __formUsableAt: number }).__formUsableAt,
        requested: performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, startTime: entry.startTime })),
      }));
      const requestedAt = new Map(timing.requested.map((entry) => [entry.url, entry.startTime]));
      const all = (await Promise.all(bodies)).filter((entry): entry is NonNullable<typeof entry> => entry !== null);
      const unknown = all.filter((entry) => !requestedAt.has(entry.url));
      if (unknown.length > 0) throw new Error(`no Resource Timing entry for ${unknown.map((entry) => entry.file).join(', ')}`);
      const loaded = all.filter((entry) => requestedAt.get(entry.url)! < timing.usableAt);
      const afterInteractive = all.filter((entry) => requestedAt.get(entry.url)! >= timing.usableAt);
      const interactiveMs = timing.usableAt;
      const loadedFiles = new Set(loaded.map((entry) => entry.file));
      const closureFiles = new Set(login.chunks.map((chunk) => chunk.file));
      const agrees = loadedFiles.size === closureFiles.size && [...loadedFiles].every((file) => closureFiles.has(file));
      return {
        buildMs,
        login: { ...login, loaded, afterInteractive, loadedGzBytes: loaded.reduce((sum, entry) => sum + entry.gzBytes, 0), agrees, interactiveMs },
        list,
        adminRoutes,
        worker,
        css,
        listPackages,
        loginPackages,
        otherChunks,
      };
    } finally {
      await context.close();
      await server.close();
    }
  } finally {
    if (options.keepBuild) console.log(`app build kept in ${outDir}`);
    else await rm(outDir, { recursive: true, force: true });
  }
}


/** The scripts /login requested before and after its form was usable, /list's chunks, and /list by package. */
export function printScriptTables(bundles: BundleReport): void {
  const scripts = (entries: readonly LoadedScript[]) => entries.map((e) => [e.file, round(e.bytes / KB), round(e.gzBytes / KB)]);
  console.log('');
  console.log(formatTable(['/login: requested before the form was usable', 'KB', 'KB gz'], scripts(bundles.login.loaded)));
  console.log('');
  console.log(formatTable(['/login: requested after (off the critical path)', 'KB', 'KB gz'], scripts(bundles.login.afterInteractive)));
  console.log('');
  console.log(formatTable(['/list chunk (static closure)', 'KB', 'KB gz'], bundles.list.chunks.map((c) => [c.file, round(c.bytes / KB), round(c.gzBytes / KB)])));
  console.log('');
  console.log(
    formatTable(
      ['/list JS by package (source maps)', 'KB min', 'KB gz (share)'],
      bundles.listPackages.slice(0, 20).map((p) => [p.name, round(p.bytes / KB), round(p.gzBytesEstimate / KB)]),
    ),
  );
}

