import { describe, expect, it } from 'vitest';
import { benchmarksPage } from './benchmarks-page';
import { ratioFigure } from './method';
import { benchResultSchema, type BenchResult } from './result-schema';

const fingerprint = {
  cpuModel: 'AMD EPYC',
  cores: 2,
  memoryGiB: 24,
  platform: 'linux',
  node: 'v20',
  chromium: null,
  postgres: 'postgres (PostgreSQL) 15.14',
  loadBefore: [1, 1, 1],
  loadAfter: [2, 1, 1],
  machineBusyPercent: 60,
  stealPercent: 0,
  calibrationMsBefore: 100,
  calibrationMsAfter: 101,
};

function result(bench: string, ratio: number, pass: boolean | null, checks = [{ name: 'amounts agree', pass: pass !== null }]): BenchResult {
  const pairs = [1, 2, 3, 4, 5].map(() => ({ figure: { value: 10 * ratio }, baseline: { value: 10 } }));
  const figure = { ...ratioFigure({ key: `${bench}Ratio`, name: `${bench} time`, figureLabel: 'the code', baselineLabel: 'the plain way', unit: 'ms', goal: { op: '<=', target: 1.25 } }, pairs), pass };
  return benchResultSchema.parse({
    schema: 1,
    bench,
    title: `${bench} bench`,
    size: 'full',
    command: `npm run bench:${bench}`,
    at: '2026-11-29T22:00:00.000Z',
    commit: 'abc123',
    dirty: false,
    options: {},
    fingerprint,
    wallSeconds: 60,
    cpuSeconds: 100,
    checks,
    checksPassed: checks.every((check) => check.pass),
    ratios: [figure],
    absolutes: [],
    goals: [{ figure: figure.key, kind: 'ratio', name: figure.name, op: '<=', target: 1.25, value: figure.median, pass }],
  });
}

describe('benchmarksPage', () => {
  const page = benchmarksPage([result('sync', 1.1, true), result('lists', 1.3, false), result('money', 1.1, null)], new Map([['sync', '**Run**: `npm run bench:sync`.']]), ['sync', 'lists', 'money', 'copy']);

  it('gives each goal its ratio with range, both medians, target and verdict', () => {
    expect(page).toContain('| sync | sync time | 1.1 (1.1–1.1) | 11 ms | 10 ms | ≤ 1.25 | pass | 5 |');
    expect(page).toContain('| lists | lists time | 1.3 (1.3–1.3) | 13 ms | 10 ms | ≤ 1.25 | **miss** |');
  });

  it('says a goal was not judged when a check failed, and names the check', () => {
    expect(page).toContain('| money | money time | 1.1 (1.1–1.1) | 11 ms | 10 ms | ≤ 1.25 | not judged (a check failed) |');
    expect(page).toContain('- Failed checks: amounts agree.');
  });

  it('names the benches with no full-size run and keeps each bench\'s notes', () => {
    expect(page).toContain('No full-size run on record: copy.');
    expect(page).toContain('## sync bench\n\n**Run**: `npm run bench:sync`.');
  });
});

describe('benchResultSchema', () => {
  it('refuses a full-size run with fewer than 5 pairs and a goal naming no figure', () => {
    const good = result('sync', 1, true);
    const short = { ...good, ratios: [{ ...good.ratios[0]!, ratios: [1, 1] }] };
    expect(benchResultSchema.safeParse(short).success).toBe(false);
    const orphan = { ...good, goals: [{ ...good.goals[0]!, figure: 'nothing' }] };
    expect(benchResultSchema.safeParse(orphan).success).toBe(false);
    expect(benchResultSchema.safeParse({ ...short, size: 'smoke' }).success).toBe(true);
  });
});
