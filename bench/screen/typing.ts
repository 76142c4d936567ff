/**
 * Typing the screen bench's mix into the page (bench/pages/screen.page.tsx) with real key events, key by key, each
 * timed in the page from its keydown to the frame that paints its results (or, for the bare input, its text).
 */
import type { Page } from '@playwright/test';
import { FIRST_PAINT_ROWS } from '../../src/routes/_authenticated/(enforcement)/-components/search-results';
import { cpuThrottle } from '../lib/chromium';
import type { EventTimingEntry, Keystroke, ScreenBenchPage, TypedField, WhatIf } from '../pages/screen.page';
import { textsAfterKeys, type SequenceKind, type TypingSequence } from '../pages/screen.sequences';

/** The page's harness object; page.evaluate callbacks run in the page and reach it through window. */
export type BenchWindow = { screenBench: ScreenBenchPage };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface TypedKey {
  sequence: number;
  kind: SequenceKind;
  key: string;
  /** The field's text the key should leave (upper case), to check the page's. */
  expected: string;
  keystroke: Keystroke | null;
}

export interface TypingPass {
  rate: number;
  /** The fixed work of `spin()` at this rate over the same at 1×: the slowdown actually applied. */
  measuredSlowdown: number;
  keys: TypedKey[];
  /** Every Event Timing entry of the run (all variants); keys find theirs by their keydown's timeStamp. */
  eventTimings: EventTimingEntry[];
  ms: number;
}

/**
 * A way to type the mix: the screen as built, the screen with a what-if applied to the page
 * (bench/pages/screen.page.tsx), or the bare input (the baseline).
 */
export interface Variant {
  name: string;
  description: string;
  field: TypedField;
  whatIf: WhatIf;
}

export const AS_BUILT: Variant = {
  name: 'asBuilt',
  field: 'screen',
  description: `the screen as built (${FIRST_PAINT_ROWS} rows with the first paint, the rest in a transition; answers read ahead)`,
  whatIf: { firstPaintRows: null, css: null },
};
export const NO_READ_AHEAD: Variant = {
  name: 'noReadAhead',
  field: 'screen',
  description: 'without the read-ahead: every keystroke waits for the worker (the screen before 2026-11-24 23:00)',
  whatIf: { firstPaintRows: null, css: null, readAhead: false },
};
/** The what-ifs `--what-if NAME,NAME` (or `all`) types in turn with the screen as built; tried and not kept (docs/decisions/0101, "Screen"). */
export const WHAT_IFS: Variant[] = [
  NO_READ_AHEAD,
  {
    field: 'screen',
    name: 'allRowsAtOnce',
    description: 'every row (up to 50) with the first paint: no transition',
    whatIf: { firstPaintRows: 50, css: null },
  },
  {
    field: 'screen',
    name: 'sixRowsFirst',
    description: '6 rows with the first paint, the rest in a transition',
    whatIf: { firstPaintRows: 6, css: null },
  },
  {
    field: 'screen',
    name: 'cvAfterThird',
    description: 'content-visibility: auto only from the 4th row of a category',
    whatIf: { firstPaintRows: null, css: '.plate-row { content-visibility: visible; } .plate-rows > .plate-row:nth-child(n+4) { content-visibility: auto; }' },
  },
  {
    field: 'screen',
    name: 'fieldLayer',
    description: 'the plate field on its own compositor layer',
    whatIf: { firstPaintRows: null, css: '.plate-input { will-change: transform; }' },
  },
  {
    field: 'screen',
    name: 'noHasRule',
    description: 'without the :has() rule for the phone title',
    whatIf: { firstPaintRows: null, css: null, dropSelector: ':has(' },
  },
  {
    field: 'screen',
    name: 'noStatusLine',
    description: 'without the status line above the field (the bench laid the screen out so before 2026-11-24)',
    whatIf: { firstPaintRows: null, css: '.sync-line-wrap { display: none; }' },
  },
  {
    field: 'screen',
    name: 'rowsAlwaysRendered',
    description: 'rows without content-visibility: auto (always laid out and painted)',
    whatIf: { firstPaintRows: null, css: '.plate-row { content-visibility: visible; }' },
  },
];

/** The baseline: a bare `<input>` on the same page whose handler writes its text into a `<div>`. */
export const BARE_INPUT: Variant = {
  name: 'bareInput',
  description: 'a bare <input> whose input handler writes its text into a <div>',
  field: 'bare',
  whatIf: { firstPaintRows: null, css: null },
};

export interface TypingOptions {
  /** CPU throttle of the page (CDP). */
  rate: number;
  /** Least time from one key to the next (ms). */
  intervalMs: number;
  /** A key not painted within this is a timeout (and the mix goes on); it counts at this ceiling. */
  timeoutMs: number;
  /** Shifts which variant goes first in each sequence: pass the pair's number so that pairs alternate too. */
  offset?: number;
}

/** Median of three runs of the page's fixed spin loop (ms). */
async function spinMs(page: Page): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await page.evaluate(() => (window as unknown as BenchWindow).screenBench.spin()));
  return runs.sort((a, b) => a - b)[1]!;
}

/**
 * Types every sequence once per variant: sequence by sequence, the variants in turn (their order rotated from one
 * sequence to the next, and by `offset`), so that all variants meet the shared machine's load alike. Waits for each
 * key's results to be painted (or `timeoutMs`) and at least `intervalMs` between keys.
 */
export async function typeMix(page: Page, sequences: readonly TypingSequence[], options: TypingOptions, variants: readonly Variant[] = [AS_BUILT]): Promise<TypingPass[]> {
  const { rate, intervalMs, timeoutMs, offset = 0 } = options;
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
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(true));
    let index = 0;
    for (const [sequenceIndex, sequence] of sequences.entries()) {
      for (let turn = 0; turn < variants.length; turn++) {
        const v = (sequenceIndex + turn + offset) % variants.length;
        const variant = variants[v]!;
        // Clear the field between sequences, unrecorded, and let the screen settle.
        await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(false));
        if (variant.field === 'screen') await page.evaluate((whatIf) => (window as unknown as BenchWindow).screenBench.setWhatIf(whatIf), variant.whatIf);
        await page.evaluate((field) => (window as unknown as BenchWindow).screenBench.typeInto(field), variant.field);
        await page.locator(variant.field === 'screen' ? 'input.plate-input' : 'input.bare-input').fill('');
        await sleep(150);
        await page.evaluate(() => (window as unknown as BenchWindow).screenBench.resume());
        const texts = textsAfterKeys(sequence.keys);
        for (const [k, key] of sequence.keys.entries()) {
          const pressed = performance.now();
          await page.keyboard.press(key);
          const keystroke = await page.evaluate(
            ([i, timeout]) => (window as unknown as BenchWindow).screenBench.settle(i, timeout),
            [index, timeoutMs] as const,
          );
          keys[v]!.push({ sequence: sequenceIndex, kind: sequence.kind, key, expected: texts[k]!.toUpperCase().trim(), keystroke });
          index++;
          const rest = intervalMs - (performance.now() - pressed);
          if (rest > 0) await sleep(rest);
        }
      }
    }
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.record(false));
    await page.evaluate((whatIf) => (window as unknown as BenchWindow).screenBench.setWhatIf(whatIf), AS_BUILT.whatIf);
    await page.evaluate(() => (window as unknown as BenchWindow).screenBench.typeInto('screen'));
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

