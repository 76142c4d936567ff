/**
 * `npm test`'s JavaScript budget step: builds the console for production into a temporary folder and checks what each
 * page needs before it is usable against its budget (docs/development.md "Tests"): /login and /list at most 150 KB
 * gz (officers' phones), every admin route at most 250 KB. bench:screen reports the same figures (bench/lib/
 * route-scripts.ts) beside the typing times; this step makes a change that crosses a budget fail the run instead of
 * waiting for the next benchmark (/list went 0.1 KB over once without anyone seeing it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KB, readManifest } from '../bench/lib/bundle';
import { buildConsole, closureSizes, JS_BUDGETS_KB, measureAdminRoutes, ROUTE_CHAINS, routeRoots } from '../bench/lib/route-scripts';

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

async function main(): Promise<number> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'lpa-js-budgets-'));
  try {
    await buildConsole(REPO, outDir);
    const manifest = await readManifest(outDir);
    const pages = [
      { page: '/login', gzBytes: (await closureSizes(outDir, manifest, routeRoots(manifest, ROUTE_CHAINS.login))).gzBytes, budgetKB: JS_BUDGETS_KB.login },
      { page: '/list', gzBytes: (await closureSizes(outDir, manifest, routeRoots(manifest, ROUTE_CHAINS.list))).gzBytes, budgetKB: JS_BUDGETS_KB.list },
      ...(await measureAdminRoutes(REPO, outDir, manifest)).map((route) => ({
        page: `admin: ${route.route}`,
        gzBytes: route.gzBytes,
        budgetKB: JS_BUDGETS_KB.adminRoute,
      })),
    ];
    const over = pages.filter((p) => p.gzBytes > p.budgetKB * KB);
    const width = Math.max(...pages.map((p) => p.page.length));
    for (const p of pages) {
      const mark = over.includes(p) ? 'OVER' : 'ok';
      console.log(`${p.page.padEnd(width)}  ${(p.gzBytes / KB).toFixed(2).padStart(6)} KB gz  (budget ${p.budgetKB})  ${mark}`);
    }
    if (over.length > 0) {
      console.error(`\nOver the JavaScript budget: ${over.map((p) => `${p.page} ${(p.gzBytes / KB).toFixed(1)} KB gz > ${p.budgetKB}`).join('; ')}`);
      return 1;
    }
    return 0;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

process.exit(await main());
