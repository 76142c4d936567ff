import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { contentSecurityPolicy } from './src/app/content-security-policy';
import { SERVICE_WORKER_CACHE_ID } from './src/app/service-worker-caches';
import { OCR_ASSETS_DIR, OCR_ASSET_SOURCES } from './src/worker/plate-reader/ocr-assets';

/** Production builds carry a Content-Security-Policy built from the same configuration the bundle uses. */
function cspMetaTag(env: Record<string, string>): Plugin {
  return {
    name: 'lpa-content-security-policy',
    apply: 'build',
    transformIndexHtml(html) {
      const policy = contentSecurityPolicy({
        apiBase: env.VITE_API_BASE ?? '',
        authEmulatorUrl: env.VITE_FIREBASE_AUTH_EMULATOR_URL ?? '',
      });
      return html.replace('<!-- csp -->', `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
    },
  };
}

/**
 * Finds the chunks that only some hosts load: production logging (`@datadog/*`, imported on the production admin host
 * alone). The service worker leaves them out of its precache, so no other host downloads them.
 */
function hostOnlyChunks(found: Set<string>): Plugin {
  return {
    name: 'lpa-host-only-chunks',
    apply: 'build',
    generateBundle(_, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || output.isEntry) continue;
        if (output.moduleIds.some((id) => id.includes('/node_modules/@datadog/'))) found.add(output.fileName);
      }
    },
  };
}

/**
 * Offline use (docs/decisions/0016-service-worker-precaches-the-app-shell.md): a Workbox service worker, generated in
 * builds only (never by the dev server), precaches the app shell: index.html, every script and style, the enforcement
 * worker. Navigations to the console's routes are answered with index.html, so /list opens with no network. It is
 * registered by the app itself after the load event (src/app/service-worker.ts). A new version takes over only once
 * every tab of the old one has closed (no skipWaiting): a page is never reloaded or left without the chunks it was
 * built with. On the first visit it claims the open page at once, so that page works offline without a reload.
 */
function serviceWorker(): Plugin[] {
  const hostOnly = new Set<string>();
  return [
    hostOnlyChunks(hostOnly),
    ...VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'prompt',
      manifest: false,
      workbox: {
        cacheId: SERVICE_WORKER_CACHE_ID,
        // The plate reader's files too (the SIMD core: every phone browser since 2021), so Scan reads offline: ~6 MB,
        // fetched once per library version (decision 0100).
        globPatterns: ['**/*.{js,css,html}', `${OCR_ASSETS_DIR}/{tesseract-core-simd-lstm.wasm,eng.traineddata.gz}`],
        globIgnores: [`${OCR_ASSETS_DIR}/tesseract-core-lstm.js`],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => !hostOnly.has(entry.url)) })],
        navigateFallback: 'index.html',
        // The API normally lives on another origin; should it be served under /api on ours, it is never the shell.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/__\//],
        skipWaiting: false,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
      },
    }),
  ];
}

/**
 * The headers production hosting sends with every file (firebase.json `hosting.headers`, source "**": the CSP with
 * frame-ancestors, nosniff, …). `vite preview` sends the same ones, so the end-to-end tests run the build as it is
 * served.
 */
function hostingHeaders(): Record<string, string> {
  const firebase = JSON.parse(readFileSync(new URL('./firebase.json', import.meta.url), 'utf8')) as {
    hosting: { headers: { source: string; headers: { key: string; value: string }[] }[] };
  };
  const everyFile = firebase.hosting.headers.find((rule) => rule.source === '**')?.headers ?? [];
  return Object.fromEntries(everyFile.map(({ key, value }) => [key, value]));
}

/**
 * The plate reader's OCR files (src/worker/plate-reader/ocr-assets.ts) under their fixed names in OCR_ASSETS_DIR: the
 * core finds its .wasm beside itself by name, so they cannot carry Vite's content hashes; the folder carries the
 * library's version instead. The dev server answers them from node_modules; a build copies them.
 */
function ocrAssets(): Plugin {
  const require = createRequire(import.meta.url);
  const sourceOf = (file: string) => require.resolve(OCR_ASSET_SOURCES[file]!);
  const types: Record<string, string> = { js: 'text/javascript', wasm: 'application/wasm', gz: 'application/gzip' };
  return {
    name: 'lpa-ocr-assets',
    configureServer(server) {
      server.middlewares.use(`/${OCR_ASSETS_DIR}/`, (request, response, next) => {
        const file = (request.url ?? '').replace(/^\//, '').split('?')[0]!;
        if (!Object.hasOwn(OCR_ASSET_SOURCES, file)) return next();
        response.setHeader('Content-Type', types[file.split('.').pop()!] ?? 'application/octet-stream');
        createReadStream(sourceOf(file)).pipe(response);
      });
    },
    generateBundle() {
      for (const file of Object.keys(OCR_ASSET_SOURCES)) {
        this.emitFile({ type: 'asset', fileName: `${OCR_ASSETS_DIR}/${file}`, source: readFileSync(sourceOf(file)) });
      }
    },
  };
}

/**
 * The dev server serves the repository's root, so it must refuse what lives there besides the app: `.data/` (the
 * session-signing key, seed files with passwords, the PGlite files), logs, test output (traces hold tokens). Vite's
 * own defaults (.env, keys, .git) are repeated because a `deny` list replaces them.
 */
const DEV_SERVER_DENY = [
  '.env',
  '.env.*',
  '*.{crt,pem,key,p12,pfx,cer,der}',
  '.npmrc',
  '.yarnrc.yml',
  '**/.git/**',
  '**/.data/**',
  '**/.firebase/**',
  '*.log',
  '**/test-results/**',
  '**/playwright-report/**',
  '**/bench/results/**',
];

/**
 * Every route's loader sits in the entry chunk unless split, and the entry is what /login and /list pay for on an
 * officer's phone (150 KB budget). Admin sections' loaders therefore load with the section (one small chunk fetched
 * before the loader runs; admin routes have a 250 KB budget); /list, /login and the layout keep theirs inline. The
 * page component and its pending view share a chunk because the pending view is the same page without data.
 */
function adminRouteSplit({ routeId }: { routeId: string }) {
  const officerOrShell = routeId === '/_authenticated/(enforcement)/list' || !routeId.startsWith('/_authenticated/');
  if (officerOrShell) return undefined;
  return [['loader'], ['component', 'pendingComponent'], ['errorComponent'], ['notFoundComponent']] as Array<
    Array<'loader' | 'component' | 'pendingComponent' | 'errorComponent' | 'notFoundComponent'>
  >;
}

/**
 * Left alone, Rolldown gives each small module that /list, /login and the admin routes share in a different pattern
 * its own chunk (ids, lists, envelope, features, rules, access-denied-error, zod's coerce, the router's not-found,
 * React's JSX runtime: nine files of 0.1–0.6 KB gz). Each is compressed apart and fetched apart, which cost /list
 * 1.6 KB gz of its 150 KB budget (bench:screen, 2026-11-24: 150.1 → 148.5 KB; /login 140.1 → 138.7; the heaviest
 * admin route 195.3 → 193.5). They go into one chunk together with what they import (zod, which every one of those
 * routes loads already). A module not named here still works; it only costs its own file.
 * The sidebar's use-media-query and the router's useRouterState (the drawer shell, 2026-11-29) joined for the same
 * reason; with what they import, React and most of the router now sit in this chunk too (/list 150.8 → 150.0 KB gz;
 * /login 139.3 → 138.9; the heaviest admin route 197.7 → 196.6).
 * Zod lives here whole, and the code of every zod function any screen calls comes with it: admin screens keep to
 * what /list already needs (a spread shape, not z.extend; a check function, not z.superRefine; -0.4 KB gz).
 */
const SHARED_CHUNKS = [
  {
    name: 'shared',
    test: /src\/contract\/(envelope|ids|lists)\.ts$|src\/permissions\/(features|rules)\.ts$|src\/routes\/-shared\/access-denied-error\.ts$|src\/ui\/use-media-query\.ts$|@tanstack\/react-router\/dist\/esm\/useRouterState\.js$|@tanstack\/router-core\/dist\/esm\/not-found\.js$|zod\/v4\/mini\/coerce\.js$|react\/(cjs\/react-)?jsx-runtime(\.production)?\.js$/,
  },
];

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  return {
    plugins: [
      tanstackRouter({
        target: 'react',
        autoCodeSplitting: true,
        routesDirectory: 'src/routes',
        generatedRouteTree: 'src/routeTree.gen.ts',
        codeSplittingOptions: { splitBehavior: adminRouteSplit },
      }),
      react(),
      cspMetaTag(env),
      ocrAssets(),
      serviceWorker(),
    ],
    resolve: {
      // Every zod/mini import goes through the module that configures zod jitless (src/app/zod-mini.ts).
      alias: [{ find: /^zod\/mini$/, replacement: fileURLToPath(new URL('./src/app/zod-mini.ts', import.meta.url)) }],
    },
    // No CORS on either server: the console loads its files from its own origin, and no other page, localhost ones
    // included, may read them (Vite's default allows any localhost origin).
    server: { host: '127.0.0.1', port: 5173, strictPort: true, cors: false, fs: { deny: DEV_SERVER_DENY } },
    preview: { host: '127.0.0.1', port: 4173, strictPort: false, cors: false, headers: hostingHeaders() },
    // Source maps would publish the source with the build; the benchmarks that read them build with their own.
    // Lazy chunks are named by their hash alone: the entry lists every chunk's file for its preloads, and the names
    // (`promo-codes.{-$edit}.{-$promoCodeId}-…`) cost /list and /login 1 KB gz (decision 0098). Firebase's chunk keeps
    // its name: the end-to-end tests hold it back by name to prove the first page does not wait for it.
    build: {
      target: 'es2022',
      sourcemap: false,
      rolldownOptions: {
        output: {
          chunkFileNames: (chunk) => (chunk.name.startsWith('firebase-auth') ? 'assets/[name]-[hash].js' : 'assets/[hash].js'),
          codeSplitting: { groups: SHARED_CHUNKS },
        },
      },
    },
    worker: { format: 'es' },
  };
});
