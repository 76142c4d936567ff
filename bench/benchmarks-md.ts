/** `npm run bench:report`: writes BENCHMARKS.md from the committed full-size results (bench/lib/benchmarks-md.ts). */
import { writeFileSync } from 'node:fs';
import { BENCHMARKS_MD, benchmarksMd } from './lib/benchmarks-md';

const { page, benches, withResults } = benchmarksMd();
writeFileSync(BENCHMARKS_MD, page);
console.log(`BENCHMARKS.md: ${page.split('\n').length - 1} lines, ${withResults} of ${benches} benches with a full-size run`);
