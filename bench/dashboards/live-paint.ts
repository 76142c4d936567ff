/**
 * Payment → live paint (bench/dashboards.bench.ts): the console's real-time dashboard (bench/pages/dashboard-live.page.tsx,
 * the same stream reader and React screen as `/`) open in headless Chromium against the API served over HTTP, every
 * location shown; payments committed at 20 a second; for the k-th payment, the time from its commit to the first
 * frame whose "Payments" figure counts it. A payment never painted counts at the ceiling (never dropped).
 *
 * Baseline, per pair: what the design costs at best: the change feed's poll interval, plus the p50 of the summary's
 * own reads (`realtimeSummary` called directly, as the stream calls it, 20 times), plus one frame of the page.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { createApp } from '../../server/app';
import { CHANGE_POLL_MS } from '../../server/dashboards/change-feed';
import type { Db } from '../../server/db/db';
import { realtimeSummary } from '../../server/db/dashboards';
import { idTokenFor } from '../../server/testing/test-api';
import type { launchChromium } from '../lib/chromium';
import { alternate, median, percentileWithCeiling, type Pair } from '../lib/method';

/** A payment not on screen this long after its commit counts at this (the stated ceiling). */
export const LIVE_CEILING_MS = 3000;
const COMMITS_PER_SECOND = 20;
const SUMMARY_READS = 20;

export interface LivePaintSpec {
  db: Db;
  app: ReturnType<typeof createApp>;
  sessionToken: string;
  email: string;
  pageOrigin: string;
  browser: Awaited<ReturnType<typeof launchChromium>>;
  /** The fixed "now": the payments are paid then, the API's clock says it is then. */
  now: Date;
  pairs: number;
  paymentsPerPair: number;
}

export interface LivePaintResult {
  pairs: Pair[];
  /** Per pair: payments committed, and how many were never painted (counted at the ceiling). */
  committed: number[];
  unpainted: number[];
  latenciesMs: (number | null)[][];
  baseline: { pollMs: number; summaryP50Ms: number[]; frameMs: number[] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureLivePaint(spec: LivePaintSpec): Promise<LivePaintResult> {
  const server = serve({ fetch: spec.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const apiOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const page = await spec.browser.newPage();
  const result: LivePaintResult = { pairs: [], committed: [], unpainted: [], latenciesMs: [], baseline: { pollMs: CHANGE_POLL_MS, summaryP50Ms: [], frameMs: [] } };
  let sequence = 0;
  try {
    const params = new URLSearchParams({ api: apiOrigin, idToken: idTokenFor(spec.email), session: spec.sessionToken });
    await page.goto(`${spec.pageOrigin}/dashboard-live.html?${params}`);
    await page.waitForSelector('.live-live', { timeout: 30_000 });
    await sleep(1000);
    const shownNow = async () => (await page.evaluate(() => window.paintedCounts())).at(-1)?.[1] ?? 0;

    const figure = async () => {
      const before = await shownNow();
      const committedAt: number[] = [];
      for (let i = 0; i < spec.paymentsPerPair; i++) {
        const due = performance.now() + 1000 / COMMITS_PER_SECOND;
        await spec.db.query(
          `INSERT INTO transactions (location_id, license_plate, payment_time, expiry_date_time, payment_amount, fee)
           VALUES (7, 'LIVE' || $1, $2::timestamptz, $2::timestamptz + interval '1 hour', 4.50, 0.43)`,
          [String(sequence++), spec.now.toISOString()],
        );
        committedAt.push(Date.now());
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
      }
      // Until every payment is on screen, or the last one's ceiling has passed.
      const until = committedAt.at(-1)! + LIVE_CEILING_MS;
      while (Date.now() < until && (await shownNow()) < before + committedAt.length) await sleep(50);
      await sleep(100);
      const counts = await page.evaluate(() => window.paintedCounts());
      const latencies = committedAt.map((at, index) => {
        const shown = counts.find(([, count]) => count >= before + index + 1);
        return shown ? shown[0] - at : null;
      });
      result.committed.push(latencies.length);
      result.unpainted.push(latencies.filter((latency) => latency === null).length);
      result.latenciesMs.push(latencies);
      return percentileWithCeiling(latencies, 95, LIVE_CEILING_MS);
    };

    const baseline = async () => {
      const reads: number[] = [];
      for (let i = 0; i < SUMMARY_READS; i++) {
        const started = performance.now();
        await realtimeSummary(spec.db, { all: true }, undefined, spec.now);
        reads.push(performance.now() - started);
      }
      const frame = await page.evaluate(() => window.frameMs());
      const summaryP50 = median(reads);
      result.baseline.summaryP50Ms.push(summaryP50);
      result.baseline.frameMs.push(frame);
      return CHANGE_POLL_MS + summaryP50 + frame;
    };

    result.pairs = await alternate(spec.pairs, figure, baseline);
    return result;
  } finally {
    await page.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
