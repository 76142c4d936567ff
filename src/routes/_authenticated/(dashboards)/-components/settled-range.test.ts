import { describe, expect, it } from 'vitest';
import { SETTLED_PRESETS } from '../../../../contract/dashboard-queries';
import { MAX_SETTLED_RANGE_DAYS, presetDays, settledRangeProblem, settledToday } from '../../../../contract/settled-ranges';
import { rangeInWords, settledQueryOf } from './settled-range';

// 04:34 UTC on Sunday Nov 29, 2026: still Saturday Nov 28 evening in the US, already Nov 29 in Europe.
const NOW = Date.parse('2026-11-29T04:34:00Z');

describe('settled ranges in the locations’ own zones', () => {
  it('takes today from the location’s zone, not UTC’s or the browser’s', () => {
    expect(settledToday(['America/Chicago'], NOW)).toBe('2026-11-28');
    expect(settledToday(['Europe/Berlin'], NOW)).toBe('2026-11-29');
    expect(presetDays('yesterday', settledToday(['America/Chicago'], NOW))).toEqual({ from: '2026-11-27', to: '2026-11-27' });
  });

  it('over several locations, a day is complete only once it is over at every one of them', () => {
    // 06:30 UTC: past midnight in New York and Chicago, still the 28th in Los Angeles.
    const later = Date.parse('2026-11-29T06:30:00Z');
    expect(settledToday(['America/New_York', 'America/Los_Angeles', 'America/Chicago'], later)).toBe('2026-11-28');
    expect(settledToday(['America/New_York', 'America/Chicago'], later)).toBe('2026-11-29');
    expect(settledToday([], later)).toBe('2026-11-29');
  });

  it('ends every named range on the same last complete day', () => {
    const today = settledToday(['America/Chicago'], NOW);
    expect(presetDays('last7', today)).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    expect(presetDays('last30', today)).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(presetDays('thisMonth', today)).toEqual({ from: '2026-11-01', to: '2026-11-27' });
    expect(presetDays('lastMonth', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    const ends = SETTLED_PRESETS.filter((name) => name !== 'lastMonth').map((name) => presetDays(name, today).to);
    expect(new Set(ends)).toEqual(new Set(['2026-11-27']));
  });

  it('on the 1st, "This month" is the month of the last complete day, and leap years count', () => {
    expect(presetDays('thisMonth', '2026-12-01')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetDays('lastMonth', '2024-03-15')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetDays('yesterday', '2026-01-01')).toEqual({ from: '2025-12-31', to: '2025-12-31' });
  });

  it('bounds a custom range to 366 days', () => {
    expect(MAX_SETTLED_RANGE_DAYS).toBe(366);
    expect(settledRangeProblem('2024-01-01', '2024-12-31')).toBeNull(); // 366 days, a leap year
    expect(settledRangeProblem('2025-01-01', '2026-01-02')).toMatch(/at most 366 days/);
    expect(settledRangeProblem('2020-01-01', '2026-11-27')).toMatch(/at most 366 days/);
    expect(settledRangeProblem('2026-11-02', '2026-11-01')).toMatch(/not be after/);
  });
});

describe('the console’s side', () => {
  it('asks for a named range by name and a custom one by its days, with the location', () => {
    expect(settledQueryOf({})).toEqual({ range: 'last7' });
    expect(settledQueryOf({ range: 'yesterday', locationId: '3' })).toEqual({ range: 'yesterday', locationId: '3' });
    expect(settledQueryOf({ range: 'custom', from: '2025-12-01', to: '2026-01-15' })).toEqual({ from: '2025-12-01', to: '2026-01-15' });
    expect(settledQueryOf({ range: 'custom', from: '2025-12-01' })).toEqual({ range: 'last7' });
  });

  it('says the days in words', () => {
    expect(rangeInWords('2026-11-01', '2026-11-27')).toBe('Nov 1 – Nov 27, 2026');
    expect(rangeInWords('2025-12-01', '2026-01-15')).toBe('Dec 1, 2025 – Jan 15, 2026');
    expect(rangeInWords('2026-11-27', '2026-11-27')).toBe('Nov 27, 2026');
  });
});
