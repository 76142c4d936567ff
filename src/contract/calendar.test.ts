import { describe, expect, it } from 'vitest';
import { dayExists, isCalendarDate, readInstant, readWallClock } from './calendar';

describe('calendar', () => {
  it('knows the length of each month, leap years included', () => {
    for (const [year, month, last] of [
      [2026, 2, 28],
      [2028, 2, 29],
      [2100, 2, 28],
      [2000, 2, 29],
      [2026, 4, 30],
      [2026, 11, 30],
      [2026, 12, 31],
    ] as const) {
      expect(dayExists(year, month, last)).toBe(true);
      expect(dayExists(year, month, last + 1)).toBe(false);
      const text = `${year}-${String(month).padStart(2, '0')}-${last}`;
      expect(isCalendarDate(text)).toBe(true);
      expect(isCalendarDate(text.replace(/\d+$/, String(last + 1)))).toBe(false);
    }
    expect(dayExists(0, 1, 1)).toBe(false);
    expect(dayExists(2026, 13, 1)).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('2026-3-01')).toBe(false);
  });

  it('reads instants with their offset and agrees with Date on every real one', () => {
    for (const text of ['2026-03-02T09:00-06:00', '2026-03-02T15:00:00Z', '2026-03-02T15:00:00.5Z', '2028-02-29T23:59:59.999+05:30']) {
      expect(readInstant(text)).toBe(Date.parse(text));
    }
    expect(readInstant('0050-06-01T00:00Z')).toBe(Date.parse('0050-06-01T00:00:00Z'));
  });

  it('refuses what Date would roll over or PostgreSQL would refuse', () => {
    for (const text of [
      '2026-02-30T00:00:00Z',
      '2026-11-31T10:00-05:00',
      '2027-04-31T00:00Z',
      '2026-02-29T00:00Z',
      '2026-03-01T24:00Z',
      '2026-03-01T10:60Z',
      '2026-03-01T10:00:60Z',
      '2026-03-01T10:00+15:00',
      '2026-03-01T10:00+05:60',
      '0000-01-01T00:00Z',
      '2026-03-01T10:00',
      '2026-03-01',
    ]) {
      expect(readInstant(text), text).toBeNull();
    }
  });

  it('reads wall-clock times strictly', () => {
    expect(readWallClock('2026-03-02T09:30')).toEqual({ year: 2026, month: 3, day: 2, hour: 9, minute: 30 });
    expect(readWallClock('2027-04-31T09:30')).toBeNull();
    expect(readWallClock('2026-03-02T09:30Z')).toBeNull();
  });
});
