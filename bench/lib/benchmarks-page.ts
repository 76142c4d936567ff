/**
 * BENCHMARKS.md from the benches' full-size results (bench/results/latest/*.json) and their notes
 * (bench/notes/<bench>.md): where the project stands on every goal today, then per bench how to run it and what limits
 * it. Pure, so a test can feed it results.
 */
import type { BenchResult } from './result-schema';
import { round } from './stats';

const op = (value: '<=' | '>=') => (value === '<=' ? '≤' : '≥');
const verdict = (pass: boolean | null) => (pass === null ? 'not judged (a check failed)' : pass ? 'pass' : '**miss**');
const day = (at: string) => at.slice(0, 16).replace('T', ' ') + ' UTC';
const number = (value: number) => round(value).toLocaleString('en-US', { maximumFractionDigits: 3 });

function machine(result: BenchResult): string {
  const f = result.fingerprint;
  return `${f.cores}× ${f.cpuModel}; load ${f.loadBefore[0]} → ${f.loadAfter[0]}, busy ${f.machineBusyPercent} %, steal ${f.stealPercent} %, calibration ${f.calibrationMsBefore} → ${f.calibrationMsAfter} ms`;
}

export function benchmarksPage(results: readonly BenchResult[], notes: ReadonlyMap<string, string>, expected: readonly string[]): string {
  const byBench = new Map(results.map((result) => [result.bench, result]));
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench:report` from the full-size runs committed in `bench/results/latest/`: do not edit by hand.',
    'Every speed goal is a ratio against a baseline doing the plainest version of the same work, alternated in pairs in',
    'the same run ([docs/benchmarks.md](docs/benchmarks.md)); the absolute medians beside it are context. Goals are judged',
    'on unrounded values, and only when the bench\'s own checks passed.',
    '',
    '## Where the project stands',
    '',
    '| bench | goal | ratio: median (min–max) | figure, median | baseline, median | target | result | pairs | run |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const result of results) {
    for (const figure of result.ratios.filter((f) => f.goal)) {
      lines.push(
        `| ${result.bench} | ${figure.name} | ${number(figure.median)} (${number(figure.min)}–${number(figure.max)}) | ${number(figure.figure.median)} ${figure.unit} | ${number(figure.baseline.median)} ${figure.unit} | ${op(figure.goal!.op)} ${figure.goal!.target} | ${verdict(figure.pass)} | ${figure.ratios.length} | ${day(result.at)} |`,
      );
    }
  }
  const missing = expected.filter((bench) => !byBench.has(bench));
  if (missing.length > 0) lines.push('', `No full-size run on record: ${missing.join(', ')}.`);

  const absolutes = results.flatMap((result) => result.absolutes.filter((f) => f.goal).map((figure) => ({ result, figure })));
  if (absolutes.length > 0) {
    lines.push('', '## Absolute goals (sizes, counts, shares of right answers)', '', '| bench | figure | value | goal | result |', '| --- | --- | --- | --- | --- |');
    for (const { result, figure } of absolutes) {
      lines.push(`| ${result.bench} | ${figure.name} | ${number(figure.value)} ${figure.unit} | ${op(figure.goal!.op)} ${figure.goal!.target} ${figure.unit} | ${verdict(figure.pass)} |`);
    }
  }

  lines.push('', '## Runs', '', '| bench | when | commit | wall / CPU | checks | machine |', '| --- | --- | --- | --- | --- | --- |');
  for (const result of results) {
    const passed = result.checks.filter((check) => check.pass).length;
    lines.push(
      `| ${result.bench} | ${day(result.at)} | ${result.commit}${result.dirty ? ' (+ changes)' : ''} | ${number(result.wallSeconds)} s / ${number(result.cpuSeconds)} s | ${passed} of ${result.checks.length} | ${machine(result)} |`,
    );
  }

  for (const bench of expected) {
    const result = byBench.get(bench);
    lines.push('', `## ${result?.title ?? bench}`, '');
    const note = notes.get(bench)?.trim();
    if (note) lines.push(note, '');
    if (!result) continue;
    const others = result.ratios.filter((f) => !f.goal);
    if (others.length > 0) {
      lines.push(`- Context (no goal): ${others.map((f) => `${f.name} ${number(f.median)} (${number(f.min)}–${number(f.max)})`).join('; ')}.`);
    }
    const failed = result.checks.filter((check) => !check.pass);
    if (failed.length > 0) lines.push(`- Failed checks: ${failed.map((check) => `${check.name}${check.detail ? ` (${check.detail})` : ''}`).join('; ')}.`);
    lines.push(`- Run: \`${result.command}\`; ${result.fingerprint.chromium ? `Chromium ${result.fingerprint.chromium}, ` : ''}${result.fingerprint.postgres ? `${result.fingerprint.postgres}, ` : ''}Node ${result.fingerprint.node}.`);
  }
  return `${lines.join('\n')}\n`;
}
