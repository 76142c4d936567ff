/**
 * The method every bench shares (docs/benchmarks.md): a figure and its baseline, the plainest way of doing the same
 * work, run in alternating pairs on the same machine in the same run; the result is the median of the pairs' ratios
 * with their range. Pair i runs the figure first when i is even and the baseline first when it is odd, so a machine
 * that speeds up or slows down during the run weighs on both sides alike.
 */
import { percentile } from './stats';

/** One run of one side: its figure (ms, or a rate) and, where the bench can read it, the CPU time it took. */
export interface Sample {
  value: number;
  cpuMs?: number;
}

export interface Pair {
  figure: Sample;
  baseline: Sample;
}

const asSample = (result: number | Sample): Sample => (typeof result === 'number' ? { value: result } : result);

/** Runs `pairs` pairs, alternating which side goes first. */
export async function alternate(
  pairs: number,
  figure: (pair: number) => Promise<number | Sample>,
  baseline: (pair: number) => Promise<number | Sample>,
): Promise<Pair[]> {
  const result: Pair[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    if (pair % 2 === 0) {
      const f = asSample(await figure(pair));
      result.push({ figure: f, baseline: asSample(await baseline(pair)) });
    } else {
      const b = asSample(await baseline(pair));
      result.push({ figure: asSample(await figure(pair)), baseline: b });
    }
  }
  return result;
}

/** `≤` when less is better (times), `≥` when more is (rates); the target is a ratio figure ÷ baseline. */
export interface RatioGoal {
  op: '<=' | '>=';
  target: number;
}

export interface RatioSpec {
  /** The figure's key in the JSON, named by its goal. */
  key: string;
  /** What is measured, in words. */
  name: string;
  figureLabel: string;
  baselineLabel: string;
  /** Unit of both sides' values ("ms", "records/s"). */
  unit: string;
  goal: RatioGoal | null;
}

export interface Side {
  label: string;
  samples: number[];
  median: number;
  min: number;
  max: number;
  cpuMs: number[] | null;
}

export interface RatioFigure extends RatioSpec {
  figure: Side;
  baseline: Side;
  /** figure ÷ baseline per pair, in pair order. */
  ratios: number[];
  median: number;
  min: number;
  max: number;
  /** Set by `judge`: null when there is no goal or the bench's checks failed. */
  pass: boolean | null;
}

function side(label: string, samples: readonly Sample[]): Side {
  const values = samples.map((sample) => sample.value);
  const cpu = samples.every((sample) => sample.cpuMs !== undefined) ? samples.map((sample) => sample.cpuMs!) : null;
  return { label, samples: values, median: median(values), min: Math.min(...values), max: Math.max(...values), cpuMs: cpu };
}

/** The median of unrounded values; with an even count, the mean of the middle two. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function ratioFigure(spec: RatioSpec, pairs: readonly Pair[]): RatioFigure {
  if (pairs.length === 0) throw new Error(`${spec.key}: no pairs`);
  const ratios = pairs.map((pair) => pair.figure.value / pair.baseline.value);
  return {
    ...spec,
    figure: side(spec.figureLabel, pairs.map((pair) => pair.figure)),
    baseline: side(spec.baselineLabel, pairs.map((pair) => pair.baseline)),
    ratios,
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    pass: null,
  };
}

/** Whether `value` meets `goal`, on the unrounded value (16.04 does not pass ≤ 16). */
export function meets(value: number, goal: RatioGoal): boolean {
  if (!Number.isFinite(value)) return false;
  return goal.op === '<=' ? value <= goal.target : value >= goal.target;
}

/**
 * A percentile of latencies where an event that never finished (a timeout, a result never painted, a search overtaken)
 * counts at `ceilingMs` rather than being dropped: dropping it would flatter the figure exactly when the code is slow.
 */
export function percentileWithCeiling(values: readonly (number | null)[], p: number, ceilingMs: number): number {
  const counted = values.map((value) => (value === null || !Number.isFinite(value) ? ceilingMs : value));
  return percentile(counted.sort((a, b) => a - b), p);
}
