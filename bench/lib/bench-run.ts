/**
 * One bench run from start to JSON: the fingerprint's "before" half at the start; at the end the goals judged (on
 * unrounded values, and only when every check of the bench passed), tables printed, and the result parsed with
 * the schema and written. Benches report; they never fail a build (`bench:smoke` fails on a bench that breaks).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { flag } from './cli';
import { gitState, startFingerprint, treeCpuMs } from './fingerprint';
import { meets, type RatioFigure, type RatioGoal } from './method';
import { BENCH_DIR, formatTable } from './report';
import { benchResultSchema, type AbsoluteFigure, type BenchResult, type Check } from './result-schema';
import { round } from './stats';

export type Size = BenchResult['size'];

export const RESULTS_DIRS: Record<Size, string> = {
  full: path.join(BENCH_DIR, 'results', 'latest'),
  smoke: path.join(BENCH_DIR, 'results', 'smoke'),
  custom: path.join(BENCH_DIR, 'results', 'custom'),
};

/** `--smoke`: the bench at a small size, to prove it still runs (CI), not to measure. */
export const smoke = flag('smoke');

/** An absolute figure (a size, a count): bytes, MB and invariant violations stay absolute. */
export function absolute(key: string, name: string, unit: string, value: number, goal: RatioGoal | null = null): AbsoluteFigure {
  return { key, name, unit, value, goal, pass: null };
}

export interface Finish {
  checks: Check[];
  ratios: RatioFigure[];
  absolutes?: AbsoluteFigure[];
  details?: unknown;
  versions?: { chromium?: string | null; postgres?: string | null };
}

const opText = (op: RatioGoal['op']) => (op === '<=' ? '≤' : '≥');
const range = (figure: RatioFigure) => `${round(figure.median)} (${round(figure.min)}–${round(figure.max)})`;
const verdict = (pass: boolean | null, hasGoal: boolean) => (!hasGoal ? '' : pass === null ? 'not judged' : pass ? 'pass' : 'MISS');

export function startBenchRun(spec: { bench: string; title: string; size: Size; options: Record<string, unknown> }) {
  const started = performance.now();
  const cpuBefore = treeCpuMs();
  const fingerprint = startFingerprint();
  return {
    async finish(result: Finish): Promise<BenchResult> {
      const cpuSeconds = (treeCpuMs() - cpuBefore) / 1000;
      const wallSeconds = (performance.now() - started) / 1000;
      const checksPassed = result.checks.every((check) => check.pass);
      const judge = (value: number, goal: RatioGoal | null) => (goal && checksPassed ? meets(value, goal) : null);
      const ratios = result.ratios.map((figure) => ({ ...figure, pass: judge(figure.median, figure.goal) }));
      const absolutes = (result.absolutes ?? []).map((figure) => ({ ...figure, pass: judge(figure.value, figure.goal) }));
      const goals = [
        ...ratios.filter((f) => f.goal).map((f) => ({ figure: f.key, kind: 'ratio' as const, name: f.name, ...f.goal!, value: f.median, pass: f.pass })),
        ...absolutes.filter((f) => f.goal).map((f) => ({ figure: f.key, kind: 'absolute' as const, name: f.name, ...f.goal!, value: f.value, pass: f.pass })),
      ];
      const output: BenchResult = benchResultSchema.parse({
        schema: 1,
        ...spec,
        command: `npm run bench:${spec.bench}${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
        at: new Date().toISOString(),
        ...gitState(),
        fingerprint: fingerprint.finish(result.versions ?? {}),
        wallSeconds: round(wallSeconds),
        cpuSeconds: round(cpuSeconds),
        checks: result.checks,
        checksPassed,
        ratios,
        absolutes,
        goals,
        details: result.details,
      });
      printResult(output);
      const dir = RESULTS_DIRS[spec.size];
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${spec.bench}.json`);
      await writeFile(file, `${JSON.stringify(output, null, 2)}\n`);
      console.log(`\nwrote ${path.relative(process.cwd(), file)}`);
      return output;
    },
  };
}

export function printResult(result: BenchResult): void {
  console.log(`\n${result.title} (${result.size}; ${result.wallSeconds} s wall, ${result.cpuSeconds} s CPU)`);
  if (result.ratios.length > 0) {
    console.log(
      formatTable(
        ['figure', 'median', 'baseline', 'ratio (min–max)', 'pairs', 'goal', 'result'],
        result.ratios.map((f) => [
          f.key,
          `${round(f.figure.median)} ${f.unit}`,
          `${round(f.baseline.median)} ${f.unit}`,
          range(f),
          f.ratios.length,
          f.goal ? `${opText(f.goal.op)} ${f.goal.target}` : '',
          verdict(f.pass, f.goal !== null),
        ]),
      ),
    );
  }
  if (result.absolutes.length > 0) {
    console.log('');
    console.log(
      formatTable(
        ['figure', 'value', 'goal', 'result'],
        result.absolutes.map((f) => [f.key, `${round(f.value)} ${f.unit}`, f.goal ? `${opText(f.goal.op)} ${f.goal.target} ${f.unit}` : '', verdict(f.pass, f.goal !== null)]),
      ),
    );
  }
  const failed = result.checks.filter((check) => !check.pass);
  console.log(`\nchecks: ${result.checks.length - failed.length} of ${result.checks.length} passed${failed.length ? ` (failed: ${failed.map((c) => c.name).join(', ')}; goals not judged)` : ''}`);
}
