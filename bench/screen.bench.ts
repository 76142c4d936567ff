/**
 * Enforcement screen benchmark (`npm run bench:screen`), in headless Chromium:
 *
 * 1. Keystroke → results painted. A bench page (bench/pages/screen.page.tsx) mounts the real PlateSearch of /list
 *    (src/routes/_authenticated/(enforcement)/-components/, in the app's stylesheet, below SyncStatusLine as on /list) on the real enforcement
 *    worker (src/worker/enforcement.worker.ts through Comlink), after that worker has synced 500,000 records (100,000
 *    per type) from the reference API started in this process (server/testing/benchmark-api.ts) as the demo officer,
 *    and flushed them into its tables. With the page's CPU throttled 4× over CDP (`Emulation.setCPUThrottlingRate`,
 *    which does not reach the worker), it types a fixed mix of sequences (bench/pages/screen.sequences.ts) with real
 *    key events, one key every 200 ms or once the previous key's results are painted, and times each key from its
 *    keydown's timeStamp to the frame after its results are in the DOM. The Event Timing API's durations (INP-style)
 *    are recorded beside it. Each sequence is also typed under what-ifs applied to the page, not to src/ (another
 *    `firstPaintRows`, an added stylesheet, app rules taken out, a variant of the field), in turn with the screen as
 *    built; then a DevTools CPU profile of part of the mix shows where the page's main thread spends its time
 *    (optionally, the mix again at 1×).
 * 2. JavaScript before interactive. The app is built for production (vite build, the app's own vite.config.ts, into a
 *    temporary directory with the manifest on), served with `vite preview` on a free port; /login is loaded in Chromium
 *    (service workers blocked) and every JS response until load + network idle is gzipped here. /list needs a signed-in
 *    officer, so its JS is the static-import closure, from the build manifest, of the entry plus the chunks of the
 *    route components on the way to /list (__root, _authenticated, list); /login's is computed the same way and
 *    checked against what the browser loaded. The enforcement worker (created after sign-in, off the critical path)
 *    is reported on its own; where the bytes come from is read from the source maps.
 *
 * Prints tables, writes bench/results/screen.json. It reports goals; it never fails.
 *
 *   npm run bench:screen                       # 500,000 records
 *   npm run bench:screen -- --records 20000    # a quick run (split evenly over the five types)
 *
 * Options: --records N, --seed S, --interval MS (gap between keys, default 200), --rate R (CPU throttle, default 4),
 * --no-what-if (skip the what-if variants), --what-if NAME,NAME (only those what-ifs, including the ones run only on
 * request: cvAfterThird, fieldLayer, noHasRule, noStatusLine), --full-speed (add a pass of the mix at 1× CPU),
 * --keep-build (keep the temporary app build and print where it is), --no-whole-browser (skip the pass with the whole browser, workers
 * included, held to --browser-cores of one core by a cgroup CPU quota, default 0.25; needs a writable cgroup).
 * That pass types the mix with no CDP throttling: the quota slows every Chromium process alike, as a slow phone does.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Page } from '@playwright/test';
import { preview } from 'vite';
import { SYNC_PAGE_SIZE, SYNC_TYPES } from '../src/contract/enforcement';
import { flag, option } from './lib/cli';
import { calibrateServedCounts } from './lib/served-records';
import { SEARCH_CATEGORIES } from '../src/worker/enforcement-worker-api';
import { FIRST_PAINT_ROWS } from '../src/routes/_authenticated/(enforcement)/-components/search-results';
import { splitRecords } from '../server/db/seed/enforcement-data';
import { demoAccount } from '../server/db/seed/demo-accounts';
import { DEMO_LOCATIONS } from '../server/db/seed/demo-locations';
import { startApiForBenchmark } from '../server/testing/benchmark-api';
import { SESSION_HEADER } from '../src/contract/envelope';
import { chunkSize, gzipBytes, KB, npmPackageOf, packageShares, readManifest, sourceLocator, type ChunkSize, type PackageShare } from './lib/bundle';
import { buildConsole, closureSizes, JS_BUDGETS_KB, measureAdminRoutes, ROUTE_CHAINS, routeRoots, type PageScripts } from './lib/route-scripts';
import { cpuThrottle, echoPageConsole, launchChromium, launchChromiumOnDisk, type OnDiskChromium } from './lib/chromium';
import { BENCH_DIR, RESULTS_DIR, formatGoals, formatTable, goalAtMost, machineInfo, writeResults, type Goal } from './lib/report';
import { buildBenchPagesInto, freePort, serveStatic } from './lib/serve';
import { percentile, round } from './lib/stats';
import { CHROMIUM_PATH } from './lib/chromium';
import { holdBrowserToQuota } from './lib/cpu-quota';
import type { EventTimingEntry, Keystroke, ScreenBenchPage, WhatIf } from './pages/screen.page';
import { buildTypingMix, MIX, SEQUENCE_KINDS, textsAfterKeys, type SequenceKind, type TypingSequence } from './pages/screen.sequences';

// ---------------------------------------------------------------------------------------------------------------
// Options


const RECORDS = Number(option('records') ?? 500_000);
const SEED = option('seed') ?? '1';
const KEY_INTERVAL_MS = Number(option('interval') ?? 200);
const THROTTLE_RATE = Number(option('rate') ?? 4);
const FULL_SPEED_PASS = flag('full-speed');
const WHAT_IF = !flag('no-what-if');
const KEEP_BUILD = flag('keep-build');
const TRACE = flag('trace');
const WHOLE_BROWSER = !flag('no-whole-browser');
const WHOLE_BROWSER_CORES = Number(option('browser-cores') ?? 0.25);
/** Only build the app and weigh its JavaScript (no API, sync or typing): a quick check while trimming the bundle. */
const JS_ONLY = flag('js-only');
if (!Number.isInteger(RECORDS) || RECORDS < SYNC_TYPES.length) throw new Error(`--records must be an integer ≥ 5, not ${option('records')}`);

const REPO = path.dirname(BENCH_DIR);
/** The screen page is built apart from the other bench pages (bench/results/dist), so runs side by side cannot clash. */
const SCREEN_DIST = path.join(RESULTS_DIR, 'dist-screen');
/** A fixed "now" for the data, the API's clock, the sync and the screen (the search and sync benches use the same). */
const NOW_MS = Date.parse('2025-06-16T17:00:00Z');
const OFFICER = demoAccount('officer');
const LOCATION_IDS = [1, 2];
/** A keystroke whose results are not painted within this is a timeout (and the mix goes on). */
const KEY_TIMEOUT_MS = 3000;
/** A mid-range phone's screen (Lighthouse's mobile emulation). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
const GOALS = {
  keystrokeToPaintP75Ms: 50,
  verdictVisibleP75Ms: 50,
  loginJsGzKB: JS_BUDGETS_KB.login,
  listJsGzKB: JS_BUDGETS_KB.list,
  adminRouteJsGzKB: JS_BUDGETS_KB.adminRoute,
};
/** How long /login is watched after its form is usable, for the idle-time imports that follow (reported apart). */
const LATE_IMPORTS_WAIT_MS = 8000;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const step = (message: string) => console.log(`[${elapsed()}] ${message}`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The page's harness object; page.evaluate callbacks run in the page and reach it through window. */
type BenchWindow = { screenBench: ScreenBenchPage };

// ---------------------------------------------------------------------------------------------------------------
// The data: what the API serves the officer (as bench:sync computes it), and the plates among it


// ---------------------------------------------------------------------------------------------------------------
// JavaScript before interactive

interface LoadedScript {
  url: string;
  file: string;
  bytes: number;
  gzBytes: number;
}

interface BundleReport {
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

/** The admin routes' figures, heaviest first, and the goal on the heaviest. */
function adminRouteFigures(bundles: BundleReport) {
  const routes = [...bundles.adminRoutes].sort((a, b) => b.gzBytes - a.gzBytes);
  const heaviest = routes[0];
  console.log(
    formatTable(
      ['admin route (static closure)', 'KB', 'KB gz'],
      routes.map((route) => [route.route, round(route.bytes / KB), round(route.gzBytes / KB)]),
    ),
  );
  const adminRouteMaxJsGzKB = round((heaviest?.gzBytes ?? 0) / KB);
  return {
    adminRouteMaxJsGzKB,
    adminRoutes: routes.map((route) => ({ route: route.route, gzKB: round(route.gzBytes / KB) })),
    goal: goalAtMost(
      `JS gz needed by the heaviest admin route (${heaviest?.route ?? 'none'}) before usable`,
      'adminRouteMaxJsGzKB',
      adminRouteMaxJsGzKB,
      GOALS.adminRouteJsGzKB,
      'KB',
    ),
  };
}

async function measureBundles(browser: Browser): Promise<BundleReport> {
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
    const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
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
    if (KEEP_BUILD) console.log(`app build kept in ${outDir}`);
    else await rm(outDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Typing

interface TypedKey {
  sequence: number;
  kind: SequenceKind;
  key: string;
  /** The field's text the key should leave (upper case), to check the page's. */
  expected: string;
  keystroke: Keystroke | null;
}

interface TypingPass {
  rate: number;
  /** The fixed work of `spin()` at this rate over the same at 1×: the slowdown actually applied. */
  measuredSlowdown: number;
  keys: TypedKey[];
  /** Every Event Timing entry of the run (all variants); keys find theirs by their keydown's timeStamp. */
  eventTimings: EventTimingEntry[];
  ms: number;
}

/** A way to run the mix: the screen as built, or with a what-if applied to the page (bench/pages/screen.page.tsx). */
interface Variant {
  name: string;
  description: string;
  whatIf: WhatIf;
  /** Run only when named with `--what-if` (tried and rejected: BENCHMARKS.md, "Screen"). */
  onRequest?: true;
}

const AS_BUILT: Variant = {
  name: 'asBuilt',
  description: `the screen as built (${FIRST_PAINT_ROWS} rows with the first paint, the rest in a transition; answers read ahead)`,
  whatIf: { firstPaintRows: null, css: null },
};
const NO_READ_AHEAD: Variant = {
  name: 'noReadAhead',
  description: 'without the read-ahead: every keystroke waits for the worker (the screen before 2026-11-24 23:00)',
  whatIf: { firstPaintRows: null, css: null, readAhead: false },
};
const ALL_WHAT_IFS: Variant[] = [
  NO_READ_AHEAD,
  {
    name: 'allRowsAtOnce',
    description: 'every row (up to 50) with the first paint: no transition',
    whatIf: { firstPaintRows: 50, css: null },
  },
  {
    name: 'sixRowsFirst',
    description: '6 rows with the first paint, the rest in a transition',
    whatIf: { firstPaintRows: 6, css: null },
  },
  {
    name: 'cvAfterThird',
    description: 'content-visibility: auto only from the 4th row of a category',
    whatIf: { firstPaintRows: null, css: '.plate-row { content-visibility: visible; } .plate-rows > .plate-row:nth-child(n+4) { content-visibility: auto; }' },
    onRequest: true,
  },
  {
    name: 'fieldLayer',
    description: 'the plate field on its own compositor layer',
    whatIf: { firstPaintRows: null, css: '.plate-input { will-change: transform; }' },
    onRequest: true,
  },
  {
    name: 'noHasRule',
    description: 'without the :has() rule for the phone title',
    whatIf: { firstPaintRows: null, css: null, dropSelector: ':has(' },
    onRequest: true,
  },
  {
    name: 'noStatusLine',
    description: 'without the status line above the field (the bench laid the screen out so before 2026-11-24)',
    whatIf: { firstPaintRows: null, css: '.sync-line-wrap { display: none; }' },
    onRequest: true,
  },
  {
    name: 'rowsAlwaysRendered',
    description: 'rows without content-visibility: auto (always laid out and painted)',
    whatIf: { firstPaintRows: null, css: '.plate-row { content-visibility: visible; }' },
  },
];

/** `--what-if a,b`: only the named what-ifs (a shorter run when comparing one change); by default those not on request. */
const WHAT_IFS = ((names) => ALL_WHAT_IFS.filter((v) => (names === undefined ? v.onRequest !== true : names.includes(v.name))))(option('what-if')?.split(','));

/** Median of three runs of the page's fixed spin loop (ms). */
async function spinMs(page: Page): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await page.evaluate(() => (window as unknown as BenchWindow).screenBench.spin()));
  return runs.sort((a, b) => a - b)[1]!;
}

/**
 * Types every sequence once per variant at `rate`: sequence by sequence, the variants in turn (their order rotated
 * from one sequence to the next), so that all variants meet the shared machine's load alike. Waits for each key's
 * results to be painted (or KEY_TIMEOUT_MS) and at least KEY_INTERVAL_MS between keys.
 */
async function typeMix(page: Page, sequences: readonly TypingSequence[], rate: number, variants: readonly Variant[] = [AS_BUILT]): Promise<TypingPass[]> {
  const started = performance.now();
  const throttle = await cpuThrottle(page);
  const keys: TypedKey[][] = variants.map(() => []);
  let eventTimings: EventTimingEntry[] = [];
  let measuredSlowdown = 1;
  try {
    // The slowdown actually applied: the same work at 1× and then at `rate`, back to back (the machine is shared).
    const atFullSpeed = await spinMs(page);
    await throttle.set(rate);
    measuredSlowdown = (await spinMs(page)) / atFullSpeed;
    const field = page.locator('input.plate-input');
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(true));
    let index = 0;
    for (const [sequenceIndex, sequence] of sequences.entries()) {
      for (let turn = 0; turn < variants.length; turn++) {
        const v = (sequenceIndex + turn) % variants.length;
        // Clear the field between sequences, unrecorded, and let the screen settle.
        await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(false));
        await page.evaluate((whatIf) => (window as unknown as BenchWindow).screenBench.setWhatIf(whatIf), variants[v]!.whatIf);
        await field.fill('');
        await sleep(150);
        await page.evaluate(() => (window as unknown as BenchWindow).screenBench.resume());
        const texts = textsAfterKeys(sequence.keys);
        for (const [k, key] of sequence.keys.entries()) {
          const pressed = performance.now();
          await page.keyboard.press(key);
          const keystroke = await page.evaluate(
            ([i, timeout]) => (window as unknown as BenchWindow).screenBench.settle(i, timeout),
            [index, KEY_TIMEOUT_MS] as const,
          );
          keys[v]!.push({ sequence: sequenceIndex, kind: sequence.kind, key, expected: texts[k]!.toUpperCase().trim(), keystroke });
          index++;
          const rest = KEY_INTERVAL_MS - (performance.now() - pressed);
          if (rest > 0) await sleep(rest);
        }
      }
    }
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(false));
    await page.evaluate((whatIf) => (window as unknown as BenchWindow).screenBench.setWhatIf(whatIf), AS_BUILT.whatIf);
    eventTimings = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.eventTimings());
    // The page's list holds the final state of every keystroke (a timeout may have been painted later: not counted).
    const final = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.keystrokes());
    for (const typed of keys.flat()) {
      if (typed.keystroke !== null) typed.keystroke = final[typed.keystroke.index] ?? typed.keystroke;
    }
  } finally {
    await throttle.release();
  }
  const ms = performance.now() - started;
  return variants.map((_, v) => ({ rate, measuredSlowdown, keys: keys[v]!, eventTimings, ms }));
}

// ---------------------------------------------------------------------------------------------------------------
// Where the page's main thread spends its time while typing (a DevTools CPU profile of part of the mix)

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

interface ProfileShare {
  name: string;
  ms: number;
  /** Share of the main thread's busy time (everything but idle). */
  share: number;
}

/** A source path as the report names it: the npm package, or the path from src/. */
function moduleOf(source: string): string {
  const normalized = source.replace(/\\/g, '/');
  const npmPackage = npmPackageOf(normalized);
  if (npmPackage !== null) return npmPackage;
  const src = normalized.lastIndexOf('src/');
  return src >= 0 ? normalized.slice(src) : normalized.replace(/^(\.\.\/)+/, '');
}

/** Self time by module (through the bench page's source maps), and by native function (Intl, DOM, …). */
async function attributeProfile(profile: CpuProfile): Promise<{ busyMs: number; idleMs: number; modules: ProfileShare[] }> {
  const locators = new Map<string, Awaited<ReturnType<typeof sourceLocator>>>();
  const groupOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let group: string;
    if (url === '') {
      group = functionName.startsWith('(') ? functionName : `(native) ${functionName || 'anonymous'}`;
    } else {
      const pathname = new URL(url).pathname;
      if (!locators.has(pathname)) locators.set(pathname, await sourceLocator(path.join(SCREEN_DIST, pathname)));
      const source = locators.get(pathname)?.(lineNumber, columnNumber) ?? null;
      group = source === null ? `${path.basename(pathname)} (unmapped)` : moduleOf(source);
    }
    groupOf.set(node.id, group);
  }
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const group = groupOf.get(id) ?? '(unknown)';
    ms.set(group, (ms.get(group) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  const idleMs = ms.get('(idle)') ?? 0;
  ms.delete('(idle)');
  ms.delete('(root)');
  const busyMs = [...ms.values()].reduce((sum, value) => sum + value, 0);
  const modules = [...ms]
    .map(([name, value]) => ({ name, ms: round(value), share: round(value / busyMs) }))
    .sort((a, b) => b.ms - a.ms);
  return { busyMs: round(busyMs), idleMs: round(idleMs), modules };
}

async function profiledPass(page: Page, sequences: readonly TypingSequence[], rate: number) {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 250 });
  await session.send('Profiler.start');
  let profile: CpuProfile;
  let pass: TypingPass;
  try {
    [pass] = (await typeMix(page, sequences, rate)) as [TypingPass];
  } finally {
    profile = (await session.send('Profiler.stop')).profile as CpuProfile;
    await session.detach();
  }
  // For DevTools (Performance panel → load profile), with bench/results/dist-screen's source maps beside the page.
  await writeFile(path.join(RESULTS_DIR, 'screen.cpuprofile'), JSON.stringify(profile));
  return { keys: pass.keys.length, ...(await attributeProfile(profile)) };
}

/**
 * `--trace`: the same sequences again under a Chromium trace (devtools.timeline), summed by event on the page's main
 * thread: how much of the typing is style, layout, paint, script. Not measured; printed and saved as screen.trace.json.
 */
async function tracedPass(browser: Browser, page: Page, sequences: readonly TypingSequence[], rate: number) {
  const file = path.join(RESULTS_DIR, 'screen.trace.json');
  // No page: it must belong to the same client as `browser`, and the bench's page is the persistent context's.
  await browser.startTracing(undefined, { path: file, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  try {
    await typeMix(page, sequences, rate);
  } finally {
    await browser.stopTracing();
  }
  type TraceEvent = { name: string; ph: string; dur?: number; tid: number; pid: number; args?: { name?: string } };
  const { traceEvents } = JSON.parse(await readFile(file, 'utf8')) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const totals = new Map<string, { ms: number; n: number }>();
  for (const event of traceEvents) {
    if (event.ph !== 'X' || event.dur === undefined || main === undefined || event.tid !== main.tid || event.pid !== main.pid) continue;
    const entry = totals.get(event.name) ?? { ms: 0, n: 0 };
    entry.ms += event.dur / 1000;
    entry.n++;
    totals.set(event.name, entry);
  }
  return [...totals.entries()].map(([name, t]) => ({ name, ms: round(t.ms), n: t.n })).sort((a, b) => b.ms - a.ms);
}

interface Distribution {
  n: number;
  p50: number;
  p75: number;
  p95: number;
  max: number;
  mean: number;
}

function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p75: round(percentile(sorted, 75)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(sorted.length === 0 ? Number.NaN : sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
  };
}

/** What one pass measured: keystroke → paint, its stages, the Event Timing durations, and checks. */
function analyse(pass: TypingPass) {
  const painted = pass.keys.filter((typed) => typed.keystroke?.status === 'painted');
  const samples = painted.map((typed) => typed.keystroke!);
  const latency = samples.map((k) => k.paintedAt! - k.keydownAt);
  // Key → the verdict line for the new text painted: it renders with the answer's first paint, so a painted keystroke
  // whose verdict was in the DOM then had its verdict visible at paintedAt.
  const verdictLatency = samples.filter((k) => k.verdictShown).map((k) => k.paintedAt! - k.keydownAt);
  // Event Timing: the keydown's entry (startTime = the event's timeStamp), then the longest entry of its interaction.
  const byInteraction = new Map<number, number>();
  for (const entry of pass.eventTimings) {
    if (entry.interactionId > 0) byInteraction.set(entry.interactionId, Math.max(byInteraction.get(entry.interactionId) ?? 0, entry.duration));
  }
  const interactionOf = (k: Keystroke): number | null => {
    const keydown = pass.eventTimings.find((entry) => entry.name === 'keydown' && Math.abs(entry.startTime - k.keydownAt) < 0.5);
    if (keydown === undefined) return null; // under the 16 ms threshold: not reported
    return keydown.interactionId > 0 ? (byInteraction.get(keydown.interactionId) ?? keydown.duration) : keydown.duration;
  };
  const eventDurations = samples.map((k) => interactionOf(k) ?? 0); // 0 stands for "< 16 ms"
  const reported = eventDurations.filter((d) => d > 0).length;
  // Keys painted from the read-ahead had their results in the DOM before the worker answered: the stages below are
  // those of the keys that waited for the worker.
  const ahead = samples.filter((k) => k.readAhead);
  const waited = samples.filter((k) => !k.readAhead);
  const stages = {
    keyToSearchCall: distribution(waited.map((k) => k.searchAt! - k.keydownAt)),
    workerRoundTrip: distribution(waited.map((k) => k.answeredAt! - k.searchAt!)),
    answerToResultsInDom: distribution(waited.map((k) => k.domAt! - k.answeredAt!)),
    resultsInDomToPaint: distribution(waited.map((k) => k.paintedAt! - k.domAt!)),
  };
  // A read-ahead must show what the worker then answers: its totals per category, key by key.
  const sameTotals = (a: readonly number[] | null, b: readonly number[] | null) =>
    a !== null && b !== null && a.length === b.length && a.every((total, i) => total === b[i]);
  const readAhead = {
    keys: ahead.length,
    keystrokeToPaint: distribution(ahead.map((k) => k.paintedAt! - k.keydownAt)),
    keystrokeToPaintWaitedForWorker: distribution(waited.map((k) => k.paintedAt! - k.keydownAt)),
    resultsInDomToPaint: distribution(ahead.map((k) => k.paintedAt! - k.domAt!)),
    totalsDifferFromWorker: ahead.filter((k) => !sameTotals(k.shownTotals, k.totals)).length,
    // The worker's read-ahead after each answer: its time, how many a next key made stale, and keys that went down
    // while one still ran (their search waited for its current step).
    workerMs: distribution(samples.filter((k) => k.aheadMs !== null && k.aheadStale === false).map((k) => k.aheadMs!)),
    stale: samples.filter((k) => k.aheadStale === true).length,
    keysWhileRunning: samples.filter((k) => k.aheadRunningAtKeydown).length,
  };
  // Were the worker as slow as the page (a phone slows both): its round trip once more per unit of throttle; an
  // upper bound, as the round trip includes the page's own (already throttled) Comlink work.
  const workerSlowed = waited.map((k) => k.paintedAt! - k.keydownAt + (pass.rate - 1) * (k.answeredAt! - k.searchAt!));
  const byKind = Object.fromEntries(
    (Object.keys(MIX) as SequenceKind[]).map((kind) => [
      kind,
      distribution(painted.filter((typed) => typed.kind === kind).map((typed) => typed.keystroke!.paintedAt! - typed.keystroke!.keydownAt)),
    ]),
  ) as Record<SequenceKind, Distribution>;
  const byLength: Record<number, Distribution & { rowsMean: number; roundTripP50: number; renderP50: number }> = {};
  for (let length = 1; length <= 7; length++) {
    const ofLength = samples.filter((k) => k.text!.length === length);
    if (ofLength.length === 0) continue;
    const waitedOfLength = ofLength.filter((k) => !k.readAhead);
    byLength[length] = {
      ...distribution(ofLength.map((k) => k.paintedAt! - k.keydownAt)),
      rowsMean: round(ofLength.reduce((sum, k) => sum + (k.rows ?? 0), 0) / ofLength.length),
      roundTripP50: distribution(waitedOfLength.map((k) => k.answeredAt! - k.searchAt!)).p50,
      renderP50: distribution(waitedOfLength.map((k) => k.domAt! - k.answeredAt!)).p50,
    };
  }
  // Rendering cost grows with the rows shown (up to 10 per category): latency by how many rows the answer showed.
  const byRows = (low: number, high: number) =>
    distribution(samples.filter((k) => (k.answerRows ?? 0) >= low && (k.answerRows ?? 0) <= high).map((k) => k.paintedAt! - k.keydownAt));
  // The rows beyond the first paint's, painted before the next key (the rest were interrupted by it, as designed).
  const allRows = samples.filter((k) => k.allRowsPaintedAt !== null);
  const byRowsShown = { '0': byRows(0, 0), '1-10': byRows(1, 10), '11-30': byRows(11, 30), '31-50': byRows(31, 50) };
  // Where the time goes for each group: the p75 of each stage.
  const stagesOf = (low: number, high: number) => {
    const group = waited.filter((k) => (k.answerRows ?? 0) >= low && (k.answerRows ?? 0) <= high);
    return {
      keyToSearchCall: distribution(group.map((k) => k.searchAt! - k.keydownAt)).p75,
      workerRoundTrip: distribution(group.map((k) => k.answeredAt! - k.searchAt!)).p75,
      answerToResultsInDom: distribution(group.map((k) => k.domAt! - k.answeredAt!)).p75,
      resultsInDomToPaint: distribution(group.map((k) => k.paintedAt! - k.domAt!)).p75,
    };
  };
  const byRowsShownStagesP75 = { '0': stagesOf(0, 0), '1-10': stagesOf(1, 10), '11-30': stagesOf(11, 30), '31-50': stagesOf(31, 50) };
  const misses = samples.filter((k) => (k.totals ?? k.shownTotals ?? []).every((total) => total === 0)).length;
  const finalPlateTotals = pass.keys
    .filter((typed, i) => typed.kind === 'plate' && pass.keys[i + 1]?.sequence !== typed.sequence)
    .map((typed) => typed.keystroke?.totals?.reduce((sum, total) => sum + total, 0) ?? 0);
  return {
    rate: pass.rate,
    measuredSlowdown: round(pass.measuredSlowdown),
    keys: pass.keys.length,
    samples: samples.length,
    timeouts: pass.keys.filter((typed) => typed.keystroke === null || typed.keystroke.status === 'timeout').length,
    noSearch: pass.keys.filter((typed) => typed.keystroke?.status === 'noSearch').length,
    textMismatches: pass.keys.filter((typed) => typed.keystroke?.text !== typed.expected).length,
    keystrokeToPaint: distribution(latency),
    verdictVisible: distribution(verdictLatency),
    keystrokeToAllRowsPainted: distribution(allRows.map((k) => k.allRowsPaintedAt! - k.keydownAt)),
    allRowsPaintedBeforeNextKey: allRows.length,
    eventTiming: {
      reportedOver16Ms: reported,
      p50: round(percentile([...eventDurations].sort((a, b) => a - b), 50)),
      p75: round(percentile([...eventDurations].sort((a, b) => a - b), 75)),
      p95: round(percentile([...eventDurations].sort((a, b) => a - b), 95)),
      max: round(Math.max(0, ...eventDurations)),
    },
    stages,
    readAhead,
    workerSlowedEstimate: distribution(workerSlowed),
    keysWithFramesBeforeResults: samples.filter((k) => k.framesBeforeResults > 0).length,
    framesBeforeResultsMax: Math.max(0, ...samples.map((k) => k.framesBeforeResults)),
    byKind,
    byLength,
    byRowsShown,
    byRowsShownStagesP75,
    answers: { hits: samples.length - misses, misses },
    fullPlatesFound: finalPlateTotals.every((total) => total > 0),
    ms: round(pass.ms),
  };
}

const showEvent = (ms: number) => (ms === 0 ? '< 16' : String(ms));

// ---------------------------------------------------------------------------------------------------------------

/** The scripts /login requested before and after its form was usable, /list's chunks, and /list by package. */
function printScriptTables(bundles: BundleReport): void {
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

/** `--js-only`: the JavaScript figures alone, printed and written to bench/results/screen-js.json. */
async function measureJsOnly(): Promise<void> {
  const browser = await launchChromium();
  try {
    step('building the app (production) and loading /login');
    const bundles = await measureBundles(browser);
    const loginJsGzKB = round(bundles.login.loadedGzBytes / KB);
    const listJsGzKB = round(bundles.list.gzBytes / KB);
    printScriptTables(bundles);
    const admin = adminRouteFigures(bundles);
    const goals: Goal[] = [
      goalAtMost('JS gz loaded by /login before interactive', 'loginJsGzKB', loginJsGzKB, GOALS.loginJsGzKB, 'KB'),
      goalAtMost('JS gz needed by /list before interactive', 'listJsGzKB', listJsGzKB, GOALS.listJsGzKB, 'KB'),
      admin.goal,
    ];
    console.log('');
    console.log(`/login manifest closure ${round(bundles.login.gzBytes / KB)} KB gz (${bundles.login.agrees ? 'same files as the browser requested' : 'DIFFERENT files from the browser'}); form usable after ${round(bundles.login.interactiveMs)} ms`);
    console.log(formatGoals(goals));
    await writeResults('screen-js', {
      name: 'screen-js',
      date: new Date().toISOString(),
      loginJsGzKB,
      listJsGzKB,
      adminRouteMaxJsGzKB: admin.adminRouteMaxJsGzKB,
      adminRoutes: admin.adminRoutes,
      loginAfterInteractiveGzKB: round(bundles.login.afterInteractive.reduce((sum, e) => sum + e.gzBytes, 0) / KB),
      loginManifestMatchesBrowser: bundles.login.agrees,
      listChunks: bundles.list.chunks.map((c) => ({ file: c.file, gzKB: round(c.gzBytes / KB) })),
    });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  if (JS_ONLY) return measureJsOnly();
  const loadAtStart = machineInfo().loadAverage;
  step(`building the screen page (${path.relative(REPO, SCREEN_DIST)}); finding record counts that serve ${RECORDS} records`);
  const pageBuildMs = await buildBenchPagesInto(['screen'], SCREEN_DIST, [react()], { sourcemap: true });
  const { counts, plates } = calibrateServedCounts(splitRecords(RECORDS), { locations: LOCATION_IDS, seed: SEED, nowMs: NOW_MS });
  const server = await serveStatic(SCREEN_DIST);

  step(`reference API: generating ${SYNC_TYPES.reduce((sum, type) => sum + counts[type], 0)} records (served to the officer: ${RECORDS}) into PGlite`);
  const apiStarted = performance.now();
  const api = await startApiForBenchmark({ counts, seed: SEED, now: new Date(NOW_MS), locationIds: LOCATION_IDS, corsOrigins: [server.origin] });
  const apiStartMs = performance.now() - apiStarted;
  let apiStopped = false;
  let onDisk: OnDiskChromium | null = null;
  try {
    const headers = await api.headersFor(OFFICER.email);

    // The typing mix, from the plates the officer's store will hold.
    const joined = `\n${plates.join('\n')}\n`;
    const { warmUp, sequences } = buildTypingMix(plates, (text) => joined.includes(text), SEED);

    // Storage on disk, as on a phone: Chromium 150's off-the-record IndexedDB is in memory (bench/lib/chromium.ts).
    onDisk = await launchChromiumOnDisk(PHONE);
    const { browser, context } = onDisk;
    const chromium = onDisk.version;
    const page = context.pages()[0] ?? (await context.newPage());
    echoPageConsole(page, '[screen page]');
    await page.goto(`${server.origin}/screen.html`);
    const isolated = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.crossOriginIsolated());
    const eventTimingSupported = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.eventTimingSupported());
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.startWorker());
    const opened = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.open());
    if (!opened.available || !opened.empty) throw new Error(`the store is not fresh: ${JSON.stringify(opened)}`);

    step(`sync: ${RECORDS} records, five types, as ${OFFICER.email} (locations ${LOCATION_IDS.join(', ')}), into the real worker`);
    const synced = await page.evaluate((options) => (window as unknown as BenchWindow).screenBench.sync(options), {
      apiBase: api.url,
      locationIds: LOCATION_IDS,
      now: NOW_MS,
      idToken: headers.Authorization!.replace(/^Bearer /, ''),
      sessionToken: headers[SESSION_HEADER]!,
      maxCallsPerType: Math.ceil(RECORDS / SYNC_PAGE_SIZE) + 10,
    });
    const syncedRecords = synced.types.reduce((sum, type) => sum + type.records, 0);
    const failures = synced.types.filter((type) => type.failure !== null);
    if (failures.length > 0) throw new Error(`sync failed: ${failures.map((type) => `${type.type}: ${type.failure}`).join('; ')}`);
    await api.stop();
    apiStopped = true;

    // While the worker moves the synced pages into its tables (flush), build the app and weigh its JavaScript.
    step(`synced ${syncedRecords} records in ${round(synced.ms / 1000)} s; flushing them into the tables while the app is built and /login loaded`);
    const flushing = page.evaluate(() => (window as unknown as BenchWindow).screenBench.flush());
    flushing.catch(() => undefined); // awaited below; not an unhandled rejection should the bundle step throw first
    const bundles = await measureBundles(browser);
    step(`app built in ${round(bundles.buildMs / 1000)} s; /login ${round(bundles.login.loadedGzBytes / KB)} KB gz loaded, /list ${round(bundles.list.gzBytes / KB)} KB gz; waiting for the flush`);
    const flushMs = await flushing;
    const status = await page.evaluate(() => (window as unknown as BenchWindow).screenBench.status());
    const held = status.types.reduce((sum, type) => sum + type.totalRecords, 0);

    // Warm the worker (the first query after loading builds the index's presence bitmaps) and the page's code.
    await page.evaluate(([texts, now]) => (window as unknown as BenchWindow).screenBench.warm(texts, now), [['A', '07', 'K4', plates[0]!], NOW_MS] as const);
    const syncTimes = status.types.map((type) => type.lastSync);
    const locations = DEMO_LOCATIONS.filter((l) => LOCATION_IDS.includes(l.location_id)).map((l) => ({ location_id: l.location_id, name: l.name, time_zone: l.time_zone }));
    await page.evaluate((options) => (window as unknown as BenchWindow).screenBench.mount(options), {
      locations,
      nowMs: NOW_MS,
      lastSyncedAt: syncTimes.every((t) => t !== null) ? Math.min(...(syncTimes as number[])) : null,
      status,
    });

    const keyCount = sequences.reduce((sum, s) => sum + s.keys.length, 0);
    const variants = WHAT_IF ? [AS_BUILT, ...WHAT_IFS] : [AS_BUILT];
    step(
      `warm-up sequence (${warmUp.keys.length} keys, unrecorded), then the mix: ${sequences.length} sequences, ${keyCount} keys at ${THROTTLE_RATE}× CPU` +
        (WHAT_IF ? `, each sequence also typed with ${WHAT_IFS.length} what-ifs in turn` : ''),
    );
    await typeMix(page, [warmUp], THROTTLE_RATE);
    const [throttledPass, ...whatIfPasses] = (await typeMix(page, sequences, THROTTLE_RATE, variants)) as [TypingPass, ...TypingPass[]];
    // Not measured: the first sequence of each kind again, with DevTools' CPU profiler on (it costs the page time).
    const profiledSequences = (Object.keys(MIX) as SequenceKind[]).map((kind) => sequences.find((s) => s.kind === kind)!);
    step(`profiling the page's main thread while typing ${profiledSequences.length} sequences at ${THROTTLE_RATE}× CPU (not measured)`);
    const profile = await profiledPass(page, profiledSequences, THROTTLE_RATE);
    if (TRACE) {
      step(`tracing the page's main thread while typing ${profiledSequences.length} sequences at ${THROTTLE_RATE}× CPU (not measured)`);
      const events = await tracedPass(browser, page, profiledSequences, THROTTLE_RATE);
      console.log(formatTable(['trace event (page main thread; nested events overlap)', 'ms', 'n'], events.slice(0, 25).map((e) => [e.name, e.ms, e.n])));
    }
    let fullSpeedPass: TypingPass | null = null;
    if (FULL_SPEED_PASS) {
      step(`the same mix at 1× CPU (comparison)`);
      [fullSpeedPass] = (await typeMix(page, sequences, 1)) as [TypingPass];
    }
    let wholeBrowserPass: TypingPass | null = null;
    // The read-ahead's searches take the worker's share of the quota: the same pass without it, sequence by sequence.
    let wholeBrowserNoReadAheadPass: TypingPass | null = null;
    let wholeBrowserSetup = 'skipped (--no-whole-browser)';
    if (WHOLE_BROWSER) {
      step(`the same mix with the whole browser (workers included) held to ${WHOLE_BROWSER_CORES} of one core, no CDP throttling`);
      try {
        const quota = holdBrowserToQuota(CHROMIUM_PATH, WHOLE_BROWSER_CORES);
        wholeBrowserSetup = quota.description;
        try {
          await typeMix(page, [warmUp], 1);
          [wholeBrowserPass, wholeBrowserNoReadAheadPass] = (await typeMix(page, sequences, 1, [AS_BUILT, NO_READ_AHEAD])) as [TypingPass, TypingPass];
        } finally {
          quota.release();
        }
      } catch (error) {
        wholeBrowserSetup = `not measured: ${error instanceof Error ? error.message : String(error)}`;
        console.warn(`  whole-browser pass ${wholeBrowserSetup}`);
      }
    }
    await onDisk.close();

    // ---- figures ----
    const throttled = analyse(throttledPass);
    const fullSpeed = fullSpeedPass === null ? null : analyse(fullSpeedPass);
    const wholeBrowser = wholeBrowserPass === null ? null : analyse(wholeBrowserPass);
    const wholeBrowserNoReadAhead = wholeBrowserNoReadAheadPass === null ? null : analyse(wholeBrowserNoReadAheadPass);
    const whatIfs = whatIfPasses.map((pass, i) => ({ ...WHAT_IFS[i]!, result: analyse(pass) }));
    const loginJsGzKB = round(bundles.login.loadedGzBytes / KB);
    const listJsGzKB = round(bundles.list.gzBytes / KB);
    const workerGzKB = round(bundles.worker.reduce((sum, c) => sum + c.gzBytes, 0) / KB);
    const admin = adminRouteFigures(bundles);
    const goals: Goal[] = [
      goalAtMost(`keystroke → results painted, p75 (${THROTTLE_RATE}× CPU)`, 'keystrokeToPaintP75Ms', throttled.keystrokeToPaint.p75, GOALS.keystrokeToPaintP75Ms, 'ms'),
      goalAtMost(`keystroke → verdict line painted, p75 (${THROTTLE_RATE}× CPU)`, 'verdictVisibleP75Ms', throttled.verdictVisible.p75, GOALS.verdictVisibleP75Ms, 'ms'),
      goalAtMost('JS gz loaded by /login before interactive', 'loginJsGzKB', loginJsGzKB, GOALS.loginJsGzKB, 'KB'),
      goalAtMost('JS gz needed by /list before interactive', 'listJsGzKB', listJsGzKB, GOALS.listJsGzKB, 'KB'),
      admin.goal,
    ];
    const checks = {
      syncedAll: syncedRecords === RECORDS && held === RECORDS,
      noTimeouts: [throttled, fullSpeed, ...whatIfs.map((w) => w.result)].every((pass) => (pass?.timeouts ?? 0) === 0),
      fieldTextAsTyped: [throttled, fullSpeed, ...whatIfs.map((w) => w.result)].every((pass) => (pass?.textMismatches ?? 0) === 0),
      fullPlatesFound: throttled.fullPlatesFound,
      readAheadAsWorkerAnswered: [throttled, wholeBrowser, ...whatIfs.map((w) => w.result)].every((pass) => (pass?.readAhead.totalsDifferFromWorker ?? 0) === 0),
      loginManifestMatchesBrowser: bundles.login.agrees,
      crossOriginIsolated: isolated,
      eventTimingSupported,
    };

    const load = machineInfo();
    const stageRow = (name: string, d: Distribution) => [name, d.n, d.p50, d.p75, d.p95, d.max];
    console.log('');
    console.log(
      formatTable(
        ['keystroke → results painted (ms)', 'n', 'p50', 'p75', 'p95', 'max'],
        [
          stageRow(`${THROTTLE_RATE}× CPU (page; worker not throttled) — headline`, throttled.keystrokeToPaint),
          stageRow(`  keystroke → verdict line painted (${throttled.verdictVisible.n} keys with a verdict)`, throttled.verdictVisible),
          stageRow(`  keystroke → every row of the answer painted (${throttled.allRowsPaintedBeforeNextKey} keys, before the next key)`, throttled.keystrokeToAllRowsPainted),
          ['  Event Timing, INP-style (keydown → next paint)', throttled.samples, showEvent(throttled.eventTiming.p50), showEvent(throttled.eventTiming.p75), showEvent(throttled.eventTiming.p95), showEvent(throttled.eventTiming.max)],
          stageRow(`  keys painted from the read-ahead (${throttled.readAhead.totalsDifferFromWorker} unlike the worker's answer)`, throttled.readAhead.keystrokeToPaint),
          stageRow('  keys that waited for the worker (stages below)', throttled.readAhead.keystrokeToPaintWaitedForWorker),
          stageRow(
            `  the worker's read-ahead after an answer (${throttled.readAhead.stale} stopped by a key; ${throttled.readAhead.keysWhileRunning} keys while one ran)`,
            throttled.readAhead.workerMs,
          ),
          stageRow('  key → PlateSearch calls search()', throttled.stages.keyToSearchCall),
          stageRow('  search() → answer on the page (worker round trip)', throttled.stages.workerRoundTrip),
          stageRow('  answer → results in the DOM (React render)', throttled.stages.answerToResultsInDom),
          stageRow('  results in the DOM → painted (next frame)', throttled.stages.resultsInDomToPaint),
          stageRow(`  estimate if the worker were ${THROTTLE_RATE}× slower too (upper bound)`, throttled.workerSlowedEstimate),
          ...(wholeBrowser === null
            ? []
            : [
                stageRow(`whole browser held to ${WHOLE_BROWSER_CORES} core (cgroup quota; page and worker alike)`, wholeBrowser.keystrokeToPaint),
                stageRow('  keys painted from the read-ahead', wholeBrowser.readAhead.keystrokeToPaint),
                stageRow('  keys that waited for the worker (stages below)', wholeBrowser.readAhead.keystrokeToPaintWaitedForWorker),
                stageRow('  search() → answer on the page (worker round trip)', wholeBrowser.stages.workerRoundTrip),
                stageRow('  answer → results in the DOM (React render)', wholeBrowser.stages.answerToResultsInDom),
                stageRow('  results in the DOM → painted (next frame)', wholeBrowser.stages.resultsInDomToPaint),
                stageRow('  keystroke → verdict line painted', wholeBrowser.verdictVisible),
                ...(wholeBrowserNoReadAhead === null
                  ? []
                  : [stageRow('  the same sequences in turn without the read-ahead', wholeBrowserNoReadAhead.keystrokeToPaint)]),
              ]),
          ...(fullSpeed === null
            ? []
            : [
                stageRow('1× CPU (comparison)', fullSpeed.keystrokeToPaint),
                ['  Event Timing, INP-style', fullSpeed.samples, showEvent(fullSpeed.eventTiming.p50), showEvent(fullSpeed.eventTiming.p75), showEvent(fullSpeed.eventTiming.p95), showEvent(fullSpeed.eventTiming.max)],
              ]),
        ],
      ),
    );
    if (whatIfs.length > 0) {
      console.log('');
      console.log(
        formatTable(
          [`what-if, same sequences in turn (${THROTTLE_RATE}×; ms)`, 'p50', 'p75', 'p95', 'render p75', 'paint p75', 'all rows p75', 'frames before results', 'read ahead'],
          [{ description: AS_BUILT.description, result: throttled }, ...whatIfs].map((w) => [
            w.description,
            w.result.keystrokeToPaint.p50,
            w.result.keystrokeToPaint.p75,
            w.result.keystrokeToPaint.p95,
            w.result.stages.answerToResultsInDom.p75,
            w.result.stages.resultsInDomToPaint.p75,
            w.result.keystrokeToAllRowsPainted.p75,
            `${w.result.keysWithFramesBeforeResults} of ${w.result.samples}`,
            w.result.readAhead.keys,
          ]),
        ),
      );
    }
    console.log('');
    console.log(
      formatTable(
        ['sequence kind', 'sequences', 'keys', `p50 ms (${THROTTLE_RATE}×)`, 'p75', 'p95', 'typed'],
        (Object.keys(MIX) as SequenceKind[]).map((kind) => [
          kind,
          MIX[kind],
          throttled.byKind[kind].n,
          throttled.byKind[kind].p50,
          throttled.byKind[kind].p75,
          throttled.byKind[kind].p95,
          SEQUENCE_KINDS[kind],
        ]),
      ),
    );
    console.log('');
    console.log(
      formatTable(
        [`page main thread while typing at ${THROTTLE_RATE}× (CPU profile, ${profile.keys} keys)`, 'self ms', 'share of busy'],
        profile.modules.slice(0, 14).map((m) => [m.name, m.ms, `${round(m.share * 100)} %`]),
      ),
    );
    console.log('');
    console.log(
      formatTable(
        ['answer rows', 'n', `p50 ms (${THROTTLE_RATE}×)`, 'p75', 'p95', 'p75 stages: key→search', 'round trip', 'render', 'DOM→paint'],
        Object.entries(throttled.byRowsShown).map(([rows, d]) => {
          const stages = throttled.byRowsShownStagesP75[rows as keyof typeof throttled.byRowsShownStagesP75];
          return [rows, d.n, d.p50, d.p75, d.p95, stages.keyToSearchCall, stages.workerRoundTrip, stages.answerToResultsInDom, stages.resultsInDomToPaint];
        }),
      ),
    );
    printScriptTables(bundles);
    console.log('');
    console.log(
      formatTable(
        ['figure', 'value', 'note'],
        [
          ['records synced / held', `${syncedRecords} / ${held}`, `${SYNC_TYPES.map((type) => synced.types.find((t) => t.type === type)?.records ?? 0).join(' / ')} (${SYNC_TYPES.join(' / ')})`],
          ['sync / flush (s)', `${round(synced.ms / 1000)} / ${round(flushMs / 1000)}`, `API start ${round(apiStartMs / 1000)} s`],
          ['keys typed / painted samples', `${throttled.keys} / ${throttled.samples}`, `timeouts ${throttled.timeouts}, no search ${throttled.noSearch}, text mismatches ${throttled.textMismatches}`],
          ['answers: hits / misses', `${throttled.answers.hits} / ${throttled.answers.misses}`, 'similar characters on (the default)'],
          ['keys with a frame painted before their results', throttled.keysWithFramesBeforeResults, `the field's new text over the previous answer's results; at most ${throttled.framesBeforeResultsMax} frames`],
          ['Event Timing entries ≥ 16 ms', `${throttled.eventTiming.reportedOver16Ms} of ${throttled.samples}`, 'keys below the threshold are not reported ("< 16")'],
          ['throttle applied (spin loop vs 1×)', `${throttled.measuredSlowdown}×`, `asked ${THROTTLE_RATE}×; the worker is not throttled`],
          ['/login JS gz, loaded in the browser (KB)', loginJsGzKB, `${bundles.login.loaded.length} files; manifest closure ${round(bundles.login.gzBytes / KB)} KB (${bundles.login.agrees ? 'same files' : 'DIFFERENT files'}); form shown after ${round(bundles.login.interactiveMs)} ms (1×)`],
          ['/login JS gz requested after the form was usable (KB)', round(bundles.login.afterInteractive.reduce((sum, e) => sum + e.gzBytes, 0) / KB), bundles.login.afterInteractive.map((e) => e.file.replace(/^assets\//, '')).join(', ')],
          ['/list JS gz, manifest closure (KB)', listJsGzKB, `${bundles.list.chunks.length} chunks, ${round(bundles.list.bytes / KB)} KB minified`],
          ['enforcement worker JS gz (KB)', workerGzKB, `${bundles.worker.map((c) => c.file).join(', ')}; loaded after sign-in, off the critical path`],
          ['CSS gz (KB)', round(bundles.css.reduce((sum, c) => sum + c.gzBytes, 0) / KB), 'not counted in the JS figures'],
          ['machine load average (1/5/15 min)', load.loadAverage.join(' / '), `at start ${loadAtStart.join(' / ')}; ${load.cpus} CPUs, shared`],
        ],
      ),
    );
    console.log('');
    console.log(formatTable(['check', 'result'], Object.entries(checks).map(([name, ok]) => [name, ok ? 'ok' : 'FAILED'])));
    console.log('');
    console.log(formatGoals(goals));

    const chunkList = (chunks: readonly ChunkSize[]) => chunks.map((c) => ({ file: c.file, key: c.key, KB: round(c.bytes / KB), gzKB: round(c.gzBytes / KB) }));
    const packageList = (packages: readonly PackageShare[]) =>
      packages.filter((p) => p.gzBytesEstimate >= 100).map((p) => ({ name: p.name, KB: round(p.bytes / KB), gzKBShare: round(p.gzBytesEstimate / KB) }));
    const results = {
      name: 'screen',
      date: new Date().toISOString(),
      machine: { ...load, loadAverageAtStart: loadAtStart, chromium },
      options: { records: RECORDS, seed: SEED, keyIntervalMs: KEY_INTERVAL_MS, throttleRate: THROTTLE_RATE, fullSpeedPass: FULL_SPEED_PASS, whatIf: WHAT_IF, phone: PHONE },
      keystrokeToPaintP50Ms: throttled.keystrokeToPaint.p50,
      keystrokeToPaintP75Ms: throttled.keystrokeToPaint.p75,
      verdictVisibleP75Ms: throttled.verdictVisible.p75,
      keystrokeToPaintP75MsWholeBrowserThrottled: wholeBrowser?.keystrokeToPaint.p75 ?? null,
      wholeBrowserThrottled:
        wholeBrowser === null
          ? { setup: wholeBrowserSetup }
          : {
              setup: wholeBrowserSetup,
              keystrokeToPaint: wholeBrowser.keystrokeToPaint,
              verdictVisible: wholeBrowser.verdictVisible,
              stages: wholeBrowser.stages,
              readAhead: wholeBrowser.readAhead,
              timeouts: wholeBrowser.timeouts,
              withoutReadAhead: wholeBrowserNoReadAhead?.keystrokeToPaint ?? null,
            },
      readAhead: throttled.readAhead,
      keystrokeToPaintP95Ms: throttled.keystrokeToPaint.p95,
      keystrokeToPaintMaxMs: throttled.keystrokeToPaint.max,
      keystrokeToAllRowsPaintedP75Ms: throttled.keystrokeToAllRowsPainted.p75,
      loginJsGzKB,
      listJsGzKB,
      adminRouteMaxJsGzKB: admin.adminRouteMaxJsGzKB,
      adminRoutes: admin.adminRoutes,
      workerJsGzKB: workerGzKB,
      keystrokeToPaintDefinition:
        `keydown event.timeStamp → a MessageChannel task posted from the requestAnimationFrame after the results for the field's new ` +
        `text are in the DOM (the results region names the text its answer is for: a read-ahead's or the worker's), page CPU throttled ${THROTTLE_RATE}× over CDP; ` +
        'the worker is not throttled (DevTools throttling does not reach dedicated workers)',
      jsDefinition:
        '/login: gzip (zlib level 6, computed here) of every JS response the page requested (Resource Timing startTime) before the ' +
        'first frame painted with an enabled E-mail field (vite preview, service workers blocked); /list: the static-import closure of the entry and the component chunks of __root, _authenticated ' +
        'and list in the build manifest (the page needs a signed-in officer; with a stored session it renders before Firebase loads); KB = 1000 bytes',
      typing: {
        sequences: sequences.map((s) => ({ kind: s.kind, typed: s.description, keys: s.keys.length })),
        warmUp: warmUp.description,
        throttled,
        whatIfs: whatIfs.map((w) => ({ name: w.name, description: w.description, whatIf: w.whatIf, ...w.result })),
        fullSpeed,
        mainThreadProfile: {
          what: `DevTools CPU profile (250 µs sampling) of the page while ${profile.keys} keys (one sequence of each kind) were typed at ${THROTTLE_RATE}×, not measured; self time by module through the page's source maps`,
          busyMs: profile.busyMs,
          idleMs: profile.idleMs,
          modules: profile.modules.filter((m) => m.share >= 0.005),
        },
      },
      bundles: {
        buildMs: round(bundles.buildMs),
        login: {
          loaded: bundles.login.loaded.map((entry) => ({ file: entry.file, KB: round(entry.bytes / KB), gzKB: round(entry.gzBytes / KB) })),
          afterInteractive: bundles.login.afterInteractive.map((entry) => ({ file: entry.file, KB: round(entry.bytes / KB), gzKB: round(entry.gzBytes / KB) })),
          manifestClosure: chunkList(bundles.login.chunks),
          manifestClosureGzKB: round(bundles.login.gzBytes / KB),
          manifestMatchesBrowser: bundles.login.agrees,
          formShownMs: round(bundles.login.interactiveMs),
          packages: packageList(bundles.loginPackages),
        },
        list: { chunks: chunkList(bundles.list.chunks), KB: round(bundles.list.bytes / KB), gzKB: listJsGzKB, packages: packageList(bundles.listPackages) },
        worker: chunkList(bundles.worker),
        css: chunkList(bundles.css),
      },
      setup: {
        account: OFFICER.email,
        locationIds: LOCATION_IDS,
        now: new Date(NOW_MS).toISOString(),
        generatedByType: counts,
        syncedByType: Object.fromEntries(synced.types.map((t) => [t.type, t.records])),
        heldByType: Object.fromEntries(status.types.map((t) => [t.type, t.totalRecords])),
        syncMs: round(synced.ms),
        flushMs: round(flushMs),
        apiStartMs: round(apiStartMs),
        pageBuildMs: round(pageBuildMs),
        crossOriginIsolated: isolated,
        categories: SEARCH_CATEGORIES,
      },
      checks,
      runSeconds: round((performance.now() - started) / 1000),
      goals,
      allGoalsMet: goals.every((goal) => goal.pass),
    };
    const file = await writeResults('screen', results);
    step(`wrote ${file}`);
  } finally {
    await onDisk?.close();
    if (!apiStopped) await api.stop().catch(() => undefined);
    await server.close();
  }
}

main().catch((error: unknown) => {
  // A benchmark reports; it does not fail a build.
  console.error('bench:screen did not complete:', error);
});
