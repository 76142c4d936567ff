import { describe, expect, it } from 'vitest';
import { alternate, median, meets, percentileWithCeiling, ratioFigure } from './method';

describe('alternate', () => {
  it('runs the figure first in even pairs and the baseline first in odd ones', async () => {
    const order: string[] = [];
    const pairs = await alternate(
      4,
      async (pair) => (order.push(`f${pair}`), 10),
      async (pair) => (order.push(`b${pair}`), 5),
    );
    expect(order).toEqual(['f0', 'b0', 'b1', 'f1', 'f2', 'b2', 'b3', 'f3']);
    expect(pairs.map((pair) => pair.figure.value / pair.baseline.value)).toEqual([2, 2, 2, 2]);
  });
});

describe('ratioFigure', () => {
  const spec = { key: 'k', name: 'n', figureLabel: 'f', baselineLabel: 'b', unit: 'ms', goal: { op: '<=' as const, target: 1.25 } };
  it('takes the median of the per-pair ratios, not the ratio of medians', () => {
    const figure = ratioFigure(spec, [
      { figure: { value: 10 }, baseline: { value: 10 } },
      { figure: { value: 30 }, baseline: { value: 10 } },
      { figure: { value: 12 }, baseline: { value: 6 } },
    ]);
    expect(figure.ratios).toEqual([1, 3, 2]);
    expect(figure.median).toBe(2);
    expect([figure.min, figure.max]).toEqual([1, 3]);
    expect(figure.figure.median).toBe(12);
    expect(figure.baseline.median).toBe(10);
    expect(figure.figure.cpuMs).toBeNull();
  });
});

describe('meets', () => {
  it('judges the unrounded value', () => {
    expect(meets(16.04, { op: '<=', target: 16 })).toBe(false);
    expect(meets(16, { op: '<=', target: 16 })).toBe(true);
    expect(meets(0.8999, { op: '>=', target: 0.9 })).toBe(false);
    expect(meets(Number.NaN, { op: '>=', target: 0 })).toBe(false);
  });
});

describe('percentileWithCeiling', () => {
  it('counts an event that never finished at the ceiling instead of dropping it', () => {
    const values = [10, 10, 10, 10, 10, 10, 10, 10, 10, null];
    expect(percentileWithCeiling(values, 95, 3000)).toBe(3000);
    expect(percentileWithCeiling(values, 50, 3000)).toBe(10);
  });
  it('medians of an even count average the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
