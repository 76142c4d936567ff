import { quote as currentQuote } from '../../src/rates/quote';
import type { RateConfig, RateSet } from '../../src/rates/rate-set';
import { quote as frozenQuote } from './frozen/quote';
import { buildCases, type QuoteCase } from './workload';

/**
 * What `npm run bench:rates` runs in each runtime: today's engine and the frozen pre-day-tables one (bench/rates/frozen)
 * over the same mix. This module is bundled by esbuild, minified, once as an ES module for Node and once as a script
 * for the page (bench/rates/bundle.ts), so both runtimes run the same bundled code.
 */
export type EngineName = 'current' | 'frozen';

type QuoteFn = (
  rateSet: RateSet,
  config: RateConfig,
  arrivalMs: number,
  departureMs: number,
  timeZone: string,
) => { ok: true; amountCents: number; subtotalCents: number; taxCents: number } | { ok: false };

const ENGINES: Record<EngineName, QuoteFn> = { current: currentQuote, frozen: frozenQuote };

let cases: QuoteCase[] = [];
let sink = 0;

const quoteOf = (engine: QuoteFn, stay: QuoteCase) => engine(stay.rateSet, stay.config, stay.arrivalMs, stay.departureMs, stay.timeZone);

export const ratesBench = {
  /** Builds the seeded mix and warms both engines (tables prepared, zone years covered, code optimised). */
  setup(count: number): void {
    cases = buildCases(count);
    for (let round = 0; round < 3; round++) {
      for (const engine of Object.values(ENGINES)) for (const stay of cases) quoteOf(engine, stay);
    }
  },
  /** Whole passes of the mix until `ms` of wall time have gone; the caller reads CPU time around it. */
  loopFor(name: EngineName, ms: number): number {
    const engine = ENGINES[name];
    const started = performance.now();
    let quotes = 0;
    do {
      for (const stay of cases) {
        const result = quoteOf(engine, stay);
        if (result.ok) sink += result.amountCents;
      }
      quotes += cases.length;
    } while (performance.now() - started < ms);
    if (sink < 0) throw new Error('negative amounts');
    return quotes;
  },
  /** Each stay's amount, subtotal and tax ("-" when refused): what the two engines and runtimes must agree on. */
  amounts(name: EngineName): string[] {
    return cases.map((stay) => {
      const result = quoteOf(ENGINES[name], stay);
      return result.ok ? `${result.amountCents}/${result.subtotalCents}/${result.taxCents}` : '-';
    });
  },
  /**
   * Every call timed alone, `passes` passes of the mix, in µs (unsorted): a tail is a call's, not hidden in a mean of
   * repeats. The clock's resolution bounds the figure (Node: sub-µs; a cross-origin isolated page: 5 µs).
   */
  callLatenciesUs(name: EngineName, passes: number): number[] {
    const engine = ENGINES[name];
    const times: number[] = [];
    for (let pass = 0; pass < passes; pass++) {
      for (const stay of cases) {
        const from = performance.now();
        const result = quoteOf(engine, stay);
        times.push((performance.now() - from) * 1000);
        if (result.ok) sink += result.amountCents;
      }
    }
    return times;
  },
  /** The smallest step of `performance.now()` seen in 10,000 reads, µs. */
  clockStepUs(): number {
    let step = Number.POSITIVE_INFINITY;
    let last = performance.now();
    for (let read = 0; read < 10_000; read++) {
      const now = performance.now();
      if (now > last) step = Math.min(step, now - last);
      last = now;
    }
    return step * 1000;
  },
};

export type RatesBench = typeof ratesBench;
