/**
 * `npm run bench:report`: writes BENCHMARKS.md from the committed full-size results (bench/results/latest/*.json),
 * parsed with the benches' schema, and bench/notes/<bench>.md. The benches are those with a `bench:<name>` script.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchmarksPage } from './lib/benchmarks-page';
import { RESULTS_DIRS } from './lib/bench-run';
import { BENCH_DIR } from './lib/report';
import { benchResultSchema } from './lib/result-schema';
import { benchNames } from './lib/bench-scripts';

const root = path.dirname(BENCH_DIR);
const expected = benchNames();
const results = existsSync(RESULTS_DIRS.full)
  ? readdirSync(RESULTS_DIRS.full)
      .filter((file) => file.endsWith('.json'))
      .map((file) => {
        const parsed = benchResultSchema.safeParse(JSON.parse(readFileSync(path.join(RESULTS_DIRS.full, file), 'utf8')));
        if (!parsed.success) throw new Error(`${file}: ${parsed.error.message}`);
        return parsed.data;
      })
      .sort((a, b) => expected.indexOf(a.bench) - expected.indexOf(b.bench))
  : [];
const notes = new Map(
  expected.map((bench) => {
    const file = path.join(BENCH_DIR, 'notes', `${bench}.md`);
    return [bench, existsSync(file) ? readFileSync(file, 'utf8') : ''];
  }),
);
const page = benchmarksPage(results, notes, expected);
writeFileSync(path.join(root, 'BENCHMARKS.md'), page);
console.log(`BENCHMARKS.md: ${page.split('\n').length - 1} lines, ${results.length} of ${expected.length} benches with a full-size run`);
