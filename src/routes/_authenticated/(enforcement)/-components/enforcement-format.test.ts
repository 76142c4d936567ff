import { describe, expect, it } from 'vitest';
import {
  describeExpiry,
  describeSyncAge,
  formatAmount,
  formatDuration,
  formatInZone,
  maskPhone,
} from './enforcement-format';
import { matchRange, swappedCharacters } from './plate-highlight';

const NOW = Date.parse('2026-11-21T18:00:00Z');

describe('enforcement formatting', () => {
  it.each([
    [23 * 60_000, '23 min'],
    [30_000, '1 min'],
    [2 * 3600_000 + 10 * 60_000, '2 h 10 min'],
    [3 * 3600_000, '3 h'],
    [(3 * 24 + 4) * 3600_000, '3 d 4 h'],
  ])('a duration of %i ms reads "%s"', (ms, text) => expect(formatDuration(ms)).toBe(text));

  it('says whether a transaction expires or expired, and when', () => {
    expect(describeExpiry(NOW / 1000 + 23 * 60, NOW)).toBe('expires in 23 min');
    expect(describeExpiry(NOW / 1000 - (2 * 3600 + 10 * 60), NOW)).toBe('expired 2 h 10 min ago');
  });

  it('says how long ago data was synced', () => {
    expect(describeSyncAge(NOW - 4 * 60_000, NOW)).toBe('synced 4 min ago');
    expect(describeSyncAge(NOW - 10_000, NOW)).toBe('synced just now');
    expect(describeSyncAge(null, NOW)).toBe('never synced');
  });

  it("shows times in the location's time zone", () => {
    expect(formatInZone('2026-11-21T18:05:00Z', 'America/Chicago')).toBe('Nov 21, 12:05 PM CST');
    expect(formatInZone('2026-11-21T18:05:00Z', 'America/Los_Angeles')).toBe('Nov 21, 10:05 AM PST');
  });

  it('masks phones but for the last four digits', () => {
    expect(maskPhone('+1 312 555 0143')).toBe('•••• 0143');
    expect(maskPhone(null)).toBe('—');
    expect(maskPhone('12')).toBe('••');
  });

  it('formats amounts in dollars', () => expect(formatAmount(12.5)).toBe('$12.50'));

  it('finds the matched part of a plate, exactly or through misread characters', () => {
    expect(matchRange('7ABC123', 'bc1')).toEqual([2, 5]);
    expect(matchRange('7ABC123', 'BCI')).toEqual([2, 5]);
    expect(matchRange('SO5B', '50S8')).toEqual([0, 4]);
    expect(matchRange('7ABC123', 'XYZ')).toBeNull();
    // What a similar match swapped: [typed, on the plate], each pair once; nothing for an exact match.
    expect(swappedCharacters('SO5B', '50S8')).toEqual([['5', 'S'], ['0', 'O'], ['S', '5'], ['8', 'B']]);
    expect(swappedCharacters('7ABO1O3', 'b0')).toEqual([['0', 'O']]);
    expect(swappedCharacters('7ABC123', 'bc1')).toEqual([]);
    expect(matchRange('7ABC123', '  ')).toBeNull();
  });
});
