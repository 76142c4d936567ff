/**
 * Where the page's main thread spends its time while typing: a DevTools CPU profile of part of the mix (`--profile`),
 * or a Chromium trace (`--trace`). Not measured: both cost the page time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { npmPackageOf, sourceLocator } from '../lib/bundle';
import { RESULTS_DIR } from '../lib/report';
import { round } from '../lib/stats';
import type { TypingSequence } from '../pages/screen.sequences';
import { typeMix, type TypingOptions, type TypingPass } from './typing';

/** The screen page is built apart from the other bench pages (bench/results/dist), so runs side by side cannot clash. */
export const SCREEN_DIST = path.join(RESULTS_DIR, 'dist-screen');

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

export async function profiledPass(page: Page, sequences: readonly TypingSequence[], options: TypingOptions) {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 250 });
  await session.send('Profiler.start');
  let profile: CpuProfile;
  let pass: TypingPass;
  try {
    [pass] = (await typeMix(page, sequences, options)) as [TypingPass];
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
export async function tracedPass(browser: Browser, page: Page, sequences: readonly TypingSequence[], options: TypingOptions) {
  const file = path.join(RESULTS_DIR, 'screen.trace.json');
  // No page: it must belong to the same client as `browser`, and the bench's page is the persistent context's.
  await browser.startTracing(undefined, { path: file, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  try {
    await typeMix(page, sequences, options);
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
