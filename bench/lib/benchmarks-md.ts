/**
 * BENCHMARKS.md as `npm run bench:report` writes it: the committed full-size results (bench/results/latest/*.json),
 * parsed with the benches' schema, with bench/notes/<bench>.md; the benches are those with a `bench:<name>` script.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_DIRS } from './bench-run';
import { benchNames } from './bench-scripts';
import { benchmarksPage } from './benchmarks-page';
import { BENCH_DIR } from './report';
import { benchResultSchema, type BenchResult } from './result-schema';

export const BENCHMARKS_MD = path.join(path.dirname(BENCH_DIR), 'BENCHMARKS.md');

export function committedResults(expected: readonly string[]): BenchResult[] {
  if (!existsSync(RESULTS_DIRS.full)) return [];
  return readdirSync(RESULTS_DIRS.full)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const parsed = benchResultSchema.safeParse(JSON.parse(readFileSync(path.join(RESULTS_DIRS.full, file), 'utf8')));
      if (!parsed.success) throw new Error(`bench/results/latest/${file}: ${parsed.error.message}`);
      return parsed.data;
    })
    .sort((a, b) => expected.indexOf(a.bench) - expected.indexOf(b.bench));
}

export function benchmarksMd(): { page: string; benches: number; withResults: number } {
  const expected = benchNames();
  const results = committedResults(expected);
  const notes = new Map(
    expected.map((bench) => {
      const file = path.join(BENCH_DIR, 'notes', `${bench}.md`);
      return [bench, existsSync(file) ? readFileSync(file, 'utf8') : ''];
    }),
  );
  return { page: benchmarksPage(results, notes, expected), benches: expected.length, withResults: results.length };
}
