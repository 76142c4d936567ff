import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_MD, benchmarksMd } from './benchmarks-md';

describe('BENCHMARKS.md', () => {
  it('is what `npm run bench:report` writes from the committed results (run it after committing a full-size run)', () => {
    const { page } = benchmarksMd();
    expect(readFileSync(BENCHMARKS_MD, 'utf8')).toBe(page);
  });

  it('stays one page', () => {
    expect(benchmarksMd().page.split('\n').length).toBeLessThanOrEqual(250);
  });
});
