import { describe, expect, it } from 'vitest';
import { calendarDateIn, msToWallClock, wallClockToMs, zoneAbbreviation, zoneOf } from './zoned-time';

describe('zoned time', () => {
  it('reads a wall-clock time on the zone’s clock, across DST', () => {
    expect(new Date(wallClockToMs('2026-01-15T00:00', 'America/Chicago')!).toISOString()).toBe('2026-01-15T06:00:00.000Z');
    expect(new Date(wallClockToMs('2026-07-15T00:00', 'America/Chicago')!).toISOString()).toBe('2026-07-15T05:00:00.000Z');
    expect(new Date(wallClockToMs('2026-07-15T00:00', 'Asia/Kolkata')!).toISOString()).toBe('2026-07-14T18:30:00.000Z');
  });

  it('refuses dates that do not exist and text that is not a time', () => {
    for (const text of ['2026-02-30T10:00', '2026-11-31T00:00', '2027-04-31T12:00', '2026-13-01T00:00', '2026-01-01T24:00', 'tomorrow', '']) {
      expect(wallClockToMs(text, 'America/Chicago'), text).toBeNull();
    }
  });

  it('round-trips an instant through the wall clock', () => {
    const ms = Date.parse('2026-11-29T04:34:00Z');
    expect(msToWallClock(ms, 'America/Chicago')).toBe('2026-11-28T22:34');
    expect(wallClockToMs(msToWallClock(ms, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe(ms);
  });

  it('knows the date in a zone, and its abbreviation', () => {
    const ms = Date.parse('2026-11-29T04:34:00Z');
    expect(calendarDateIn('America/Chicago', ms)).toBe('2026-11-28');
    expect(calendarDateIn('Europe/Prague', ms)).toBe('2026-11-29');
    expect(zoneAbbreviation('America/Chicago', ms)).toBe('CST');
    expect(zoneAbbreviation('America/Chicago', Date.parse('2026-07-01T12:00:00Z'))).toBe('CDT');
  });

  it('shows records of one zone in it, of several in the viewer’s', () => {
    expect(zoneOf(['America/Denver', 'America/Denver'])).toBe('America/Denver');
    expect(zoneOf(['America/Denver', 'America/New_York'])).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
