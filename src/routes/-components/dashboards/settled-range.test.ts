import { describe, expect, it } from 'vitest';
import { settledQueryOf } from './settled-range';

const today = new Date(Date.UTC(2026, 2, 1)); // Sunday 1 March 2026

describe('settled ranges', () => {
  it('resolves each named range to whole calendar days ending before today (this month: through today)', () => {
    expect(settledQueryOf({ range: 'yesterday' }, today)).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(settledQueryOf({}, today)).toEqual({ from: '2026-02-22', to: '2026-02-28' });
    expect(settledQueryOf({ range: 'last30' }, today)).toEqual({ from: '2026-01-30', to: '2026-02-28' });
    expect(settledQueryOf({ range: 'thisMonth' }, today)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(settledQueryOf({ range: 'lastMonth' }, today)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(settledQueryOf({ range: 'lastMonth' }, new Date(Date.UTC(2024, 2, 15)))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('keeps a custom range and the location, and falls back to the last 7 days without dates', () => {
    expect(settledQueryOf({ range: 'custom', from: '2025-12-01', to: '2026-01-15', locationId: '3' }, today)).toEqual({
      from: '2025-12-01',
      to: '2026-01-15',
      locationId: '3',
    });
    expect(settledQueryOf({ range: 'custom', from: '2025-12-01' }, today)).toEqual({ from: '2026-02-22', to: '2026-02-28' });
  });
});
