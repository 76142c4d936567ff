/** The benches: every `bench:<name>` script of package.json that runs a `bench/*.bench.ts` file. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './report';

export interface BenchScript {
  name: string;
  file: string;
}

export function benchScripts(): BenchScript[] {
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(BENCH_DIR), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return Object.entries(pkg.scripts).flatMap(([script, command]) => {
    const file = /^tsx (bench\/[\w.-]+\.bench\.ts)$/.exec(command)?.[1];
    return script.startsWith('bench:') && file ? [{ name: script.slice('bench:'.length), file }] : [];
  });
}

export const benchNames = (): string[] => benchScripts().map((script) => script.name);
