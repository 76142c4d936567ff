/**
 * `npm run bench:rates`: quotes per second and per-stay latency of the price engine (src/rates/quote.ts) over a
 * fixed mix of stays and rate sets (bench/rates/workload.ts), in Node and in headless Chromium, side by side.
 * Options: --cases N (default 10,000), --seconds S (throughput loop, default 5), --repeats R (per-stay timing, default
 * 50 in Node, 200 in Chromium), --no-browser.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { launchChromium, chromiumVersion, echoPageConsole } from './lib/chromium';
import { flag, option } from './lib/cli';
import { BENCH_DIR, formatGoals, formatTable, goalAtLeast, goalAtMost, machineInfo, writeResults } from './lib/report';
import { percentile, round } from './lib/stats';
import { buildCases, runQuotes, type QuoteRun } from './rates/workload';

const cases = Number(option('cases') ?? 10_000);
const seconds = Number(option('seconds') ?? 5);
const nodeRepeats = Number(option('repeats') ?? 50);
const browserRepeats = Number(option('repeats') ?? 200);

function summary(run: QuoteRun) {
  return {
    quotesPerSec: Math.round(run.quotesPerSec),
    p50Us: round(percentile(run.perCaseUs, 50)),
    p95Us: round(percentile(run.perCaseUs, 95)),
    p99Us: round(percentile(run.perCaseUs, 99)),
    maxUs: round(run.perCaseUs.at(-1) ?? Number.NaN),
    quotes: run.quotes,
    seconds: round(run.seconds),
    checksum: run.checksum,
  };
}

async function inChromium() {
  const bundle = await build({
    entryPoints: [path.join(BENCH_DIR, 'rates', 'page-entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]!.text;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    echoPageConsole(page, '[chromium]');
    // Cross-origin isolated, so performance.now() has its fine resolution (5 µs rather than 100 µs).
    await page.route('http://localhost/rates-bench', (route) =>
      route.fulfill({
        contentType: 'text/html',
        headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
        body: '<!doctype html><title>bench:rates</title>',
      }),
    );
    await page.goto('http://localhost/rates-bench');
    await page.addScriptTag({ content: script });
    const run = await page.evaluate(([count, loop, repeats]) => window.runRatesBench(count!, loop!, repeats!), [cases, seconds, browserRepeats]);
    return { version: chromiumVersion(browser), isolated: run.isolated, ...summary(run) };
  } finally {
    await browser.close();
  }
}

const loadBefore = machineInfo().loadAverage;
const nodeRun = summary(runQuotes(buildCases(cases), seconds, nodeRepeats, () => performance.now()));
const browserRun = flag('no-browser') ? null : await inChromium();

const header = ['runtime', 'quotes/s', 'p50 µs', 'p95 µs', 'p99 µs', 'max µs', 'quotes timed'];
const rows = [['Node ' + process.version, nodeRun.quotesPerSec, nodeRun.p50Us, nodeRun.p95Us, nodeRun.p99Us, nodeRun.maxUs, nodeRun.quotes]];
if (browserRun) rows.push([`Chromium ${browserRun.version}`, browserRun.quotesPerSec, browserRun.p50Us, browserRun.p95Us, browserRun.p99Us, browserRun.maxUs, browserRun.quotes]);
console.log(`bench:rates: ${cases} stays (1 min–30 days), ${seconds} s per runtime`);
console.log(formatTable(header, rows));
if (browserRun && browserRun.checksum !== nodeRun.checksum) console.warn('Node and Chromium quoted different amounts!');

const goals = [
  goalAtLeast('quotes per second (Node)', 'quotesPerSecNode', nodeRun.quotesPerSec, 1_000_000, 'quotes/s'),
  goalAtMost('quote p99 (Node)', 'quoteP99Us', nodeRun.p99Us, 20, 'µs'),
];
console.log('');
console.log(formatGoals(goals));
const file = await writeResults('rates', {
  quotesPerSecNode: nodeRun.quotesPerSec,
  quoteP99Us: nodeRun.p99Us,
  quotesPerSecChromium: browserRun?.quotesPerSec ?? null,
  quoteP99UsChromium: browserRun?.p99Us ?? null,
  node: nodeRun,
  chromium: browserRun,
  sameAmounts: browserRun ? browserRun.checksum === nodeRun.checksum : null,
  options: { cases, seconds, nodeRepeats, browserRepeats },
  goals,
  machine: { ...machineInfo(), loadAverageBefore: loadBefore },
  at: new Date().toISOString(),
});
console.log(`\nwrote ${file}`);
