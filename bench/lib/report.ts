import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');

/** A design goal and whether the run met it. Benchmarks report goals; they never fail a build. */
export interface Goal {
  name: string;
  metric: string;
  target: string;
  measured: number;
  pass: boolean;
}

export function goalAtMost(name: string, metric: string, measured: number, limit: number, unit: string): Goal {
  return { name, metric, target: `≤ ${limit} ${unit}`.trim(), measured, pass: measured <= limit };
}

export function goalAtLeast(name: string, metric: string, measured: number, floor: number, unit: string): Goal {
  return { name, metric, target: `≥ ${floor} ${unit}`.trim(), measured, pass: measured >= floor };
}

/** Plain-text table: one header row, columns padded to their widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** The same table as Markdown, for BENCHMARKS.md. */
export function formatMarkdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (row: readonly (string | number)[]) => `| ${row.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function formatGoals(goals: readonly Goal[]): string {
  return formatTable(
    ['goal', 'measured', 'target', 'result'],
    goals.map((goal) => [goal.name, goal.measured, goal.target, goal.pass ? 'pass' : 'MISS']),
  );
}

/** What the machine was doing: a benchmark on a shared 2-core box needs its load beside its figures. */
export function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

export async function writeResults(name: string, results: unknown): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
