/**
 * `npm run bench:rates`: quotes per CPU second of the price engine (src/rates/quote.ts) ÷ the same of the frozen
 * pre-day-tables engine (bench/rates/frozen), over a fixed mix of stays and rate sets (bench/rates/workload.ts), in
 * Node and in headless Chromium: two ratio figures, goal ≥ 2.4 each (issue 35). Both runtimes run the same esbuild
 * bundle (bench/rates/bundle.ts). In each runtime the two engines alternate in pairs, each side a loop over the whole
 * mix for --side-ms of wall time, divided by the CPU time it took (Node: `process.cpuUsage`; the page: its main
 * thread's CPU time, CDP `Performance.getMetrics` ThreadTime), so time spent descheduled does not count.
 * Context: every call timed alone (per-call p50/p99/max, not means of repeats). Checks: both engines quote the same
 * amount, subtotal and tax for every stay, and Chromium the same as Node.
 *
 * Options: --cases N (default 10,000), --pairs K (default 7), --side-ms MS (default 2000), --no-browser, --smoke
 * (2,000 stays, 2 pairs of 300 ms).
 */
import type { CDPSession, Page } from '@playwright/test';
import { absolute, smoke, startBenchRun, type Size } from './lib/bench-run';
import { chromiumVersion, echoPageConsole, launchChromium } from './lib/chromium';
import { flag, option } from './lib/cli';
import { alternate, ratioFigure, type Sample } from './lib/method';
import type { Check } from './lib/result-schema';
import { percentile, round } from './lib/stats';
import { importForNode, pageScript } from './rates/bundle';
import type { EngineName, RatesBench } from './rates/engines';

const cases = Number(option('cases') ?? (smoke ? 2000 : 10_000));
const pairs = Number(option('pairs') ?? (smoke ? 2 : 7));
const sideMs = Number(option('side-ms') ?? (smoke ? 300 : 2000));
const latencyPasses = smoke ? 1 : 3;
const withBrowser = !flag('no-browser');
const custom = ['cases', 'pairs', 'side-ms'].some((name) => option(name) !== undefined) || !withBrowser;
const size: Size = smoke ? 'smoke' : custom ? 'custom' : 'full';

/** One runtime as the bench drives it: a side's quotes and CPU ms, the amounts, the per-call latencies. */
interface Runtime {
  side(engine: EngineName): Promise<Sample>;
  amounts(engine: EngineName): Promise<string[]>;
  callLatenciesUs(engine: EngineName): Promise<number[]>;
  clockStepUs: number;
}

function inNode(bench: RatesBench): Runtime {
  return {
    side: async (engine) => {
      const before = process.cpuUsage();
      const quotes = bench.loopFor(engine, sideMs);
      const used = process.cpuUsage(before);
      const cpuMs = (used.user + used.system) / 1000;
      return { value: quotes / (cpuMs / 1000), cpuMs };
    },
    amounts: async (engine) => bench.amounts(engine),
    callLatenciesUs: async (engine) => bench.callLatenciesUs(engine, latencyPasses),
    clockStepUs: bench.clockStepUs(),
  };
}

async function threadCpuMs(session: CDPSession): Promise<number> {
  const { metrics } = await session.send('Performance.getMetrics');
  const threadTime = metrics.find((metric) => metric.name === 'ThreadTime');
  if (threadTime === undefined) throw new Error('this Chromium reports no ThreadTime metric');
  return threadTime.value * 1000;
}

async function inPage(page: Page, script: string): Promise<Runtime & { isolated: boolean }> {
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
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  await page.evaluate((count) => window.ratesBench.setup(count), cases);
  return {
    side: async (engine) => {
      const before = await threadCpuMs(session);
      const quotes = await page.evaluate(([name, ms]) => window.ratesBench.loopFor(name, ms), [engine, sideMs] as const);
      const cpuMs = (await threadCpuMs(session)) - before;
      return { value: quotes / (cpuMs / 1000), cpuMs };
    },
    amounts: (engine) => page.evaluate((name) => window.ratesBench.amounts(name), engine),
    callLatenciesUs: (engine) => page.evaluate(([name, passes]) => window.ratesBench.callLatenciesUs(name, passes), [engine, latencyPasses] as const),
    clockStepUs: await page.evaluate(() => window.ratesBench.clockStepUs()),
    isolated: await page.evaluate(() => window.crossOriginIsolated),
  };
}

const differing = (a: readonly string[], b: readonly string[]) => a.filter((value, index) => value !== b[index]).length;

function latencySummary(values: number[]) {
  const sorted = values.sort((a, b) => a - b);
  return {
    calls: sorted.length,
    p50Us: round(percentile(sorted, 50)),
    p99Us: round(percentile(sorted, 99)),
    p999Us: round(percentile(sorted, 99.9)),
    maxUs: round(sorted.at(-1)!),
  };
}

async function measure(label: string, runtime: Runtime) {
  const samples = await alternate(pairs, () => runtime.side('current'), () => runtime.side('frozen'));
  const figure = ratioFigure(
    {
      key: `quotesPerCpuSecond${label}`,
      name: `quotes per CPU second, ${label}: today's engine ÷ the frozen pre-day-tables engine`,
      figureLabel: "today's engine (src/rates)",
      baselineLabel: 'frozen engine before 6c7944b (bench/rates/frozen)',
      unit: 'quotes/CPU s',
      goal: { op: '>=', target: 2.4 },
    },
    samples,
  );
  const latency = {
    current: latencySummary(await runtime.callLatenciesUs('current')),
    frozen: latencySummary(await runtime.callLatenciesUs('frozen')),
    clockStepUs: round(runtime.clockStepUs),
  };
  return { figure, latency };
}

async function main() {
  const run = startBenchRun({ bench: 'rates', title: 'Rates: quotes per CPU second against the frozen pre-day-tables engine', size, options: { cases, pairs, sideMs, latencyPasses, browser: withBrowser } });
  const script = await pageScript();
  const bench = await importForNode();
  bench.setup(cases);
  const nodeRuntime = inNode(bench);
  console.info(`bench:rates: ${cases} stays, ${pairs} pairs of ${sideMs} ms a side, Node ${process.version}`);
  const nodeResult = await measure('Node', nodeRuntime);
  const nodeAmounts = { current: await nodeRuntime.amounts('current'), frozen: await nodeRuntime.amounts('frozen') };
  const checks: Check[] = [];
  const engineDiff = differing(nodeAmounts.current, nodeAmounts.frozen);
  checks.push({ name: 'both engines quote the same amount, subtotal and tax for every stay (Node)', pass: engineDiff === 0, detail: `${engineDiff} of ${cases} differ` });

  let chromium: { version: string; isolated: boolean; result: Awaited<ReturnType<typeof measure>> } | null = null;
  if (withBrowser) {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      echoPageConsole(page, '[chromium]');
      const runtime = await inPage(page, script);
      const result = await measure('Chromium', runtime);
      for (const engine of ['current', 'frozen'] as const) {
        const diff = differing(await runtime.amounts(engine), nodeAmounts[engine]);
        checks.push({ name: `Chromium quotes what Node quotes (${engine} engine)`, pass: diff === 0, detail: `${diff} of ${cases} differ` });
      }
      chromium = { version: chromiumVersion(browser), isolated: runtime.isolated, result };
    } finally {
      await browser.close();
    }
  }

  const perCall = (label: string, result: Awaited<ReturnType<typeof measure>>) =>
    absolute(`quoteP99Us${label}`, `one call's p99, today's engine, ${label} (every call timed alone)`, 'µs', result.latency.current.p99Us);
  await run.finish({
    checks,
    ratios: [nodeResult.figure, ...(chromium ? [chromium.result.figure] : [])],
    absolutes: [perCall('Node', nodeResult), ...(chromium ? [perCall('Chromium', chromium.result)] : [])],
    details: {
      perCallLatency: { node: nodeResult.latency, chromium: chromium ? { ...chromium.result.latency, crossOriginIsolated: chromium.isolated } : null },
    },
    versions: { chromium: chromium?.version ?? null },
  });
}

await main();
