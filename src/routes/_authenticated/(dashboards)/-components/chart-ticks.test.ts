import { describe, expect, it } from 'vitest';
import { dayTicks } from './chart-ticks';

const DAY = 86_400;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;
const label = (tick: number) => new Date(tick * 1000).toISOString().slice(0, 10);

describe('day ticks of the settled chart', () => {
  it('puts one tick on each day when there is room, none between days', () => {
    // Bars pad the scale by half a day on both sides.
    const ticks = dayTicks(day('2026-11-21') - DAY / 2, day('2026-11-27') + DAY / 2, 900);
    expect(ticks.map(label)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
  });

  it('never repeats a day label, and spaces labels to fit a narrow chart', () => {
    const ticks = dayTicks(day('2026-10-29'), day('2026-11-27'), 300);
    const labels = ticks.map(label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(ticks.length).toBeLessThanOrEqual(Math.floor(300 / 56));
    expect(ticks.every((tick) => tick % DAY === 0)).toBe(true);
    expect(labels[0]).toBe('2026-10-29');
  });

  it('copes with a year of days and with a single day', () => {
    expect(dayTicks(day('2025-11-28'), day('2026-11-27'), 1000).length).toBeLessThanOrEqual(17);
    expect(dayTicks(day('2026-11-27') - DAY / 2, day('2026-11-27') + DAY / 2, 600).map(label)).toEqual(['2026-11-27']);
  });
});
