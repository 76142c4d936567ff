import { describe, expect, it } from 'vitest';
import { isTimeZone } from '../contract/locations';
import { suggestTimeZone, timeZoneGroups, timeZoneLabel, zoneFromAddress } from './time-zones';

describe('zoneFromAddress', () => {
  it.each([
    ['233 S Wacker Dr, Chicago, IL 60606', 'America/Chicago'],
    ['5 Corner St, Austin, TX 78701-1234', 'America/Chicago'],
    ['1531 Western Ave, Seattle, WA', 'America/Los_Angeles'],
    ['12 Elm St, Boston, MA 02108, USA', 'America/New_York'],
    ['100 Main St, Springfield, Illinois', 'America/Chicago'],
    ['1 Main St, Charleston, West Virginia', 'America/New_York'],
    ['Pier 39, San Francisco', 'America/Los_Angeles'],
    ['2 Kalakaua Ave, Honolulu, HI 96815', 'Pacific/Honolulu'],
  ])('%s → %s', (address, zone) => expect(zoneFromAddress(address)).toBe(zone));

  it('names nothing for an address without a US state or known city', () => {
    expect(zoneFromAddress('10 Rue de Rivoli, Paris')).toBeNull();
    expect(zoneFromAddress('')).toBeNull();
  });

  it('falls back to the computer’s own zone, said as such', () => {
    expect(suggestTimeZone('10 Rue de Rivoli, Paris')).toEqual({
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      source: "this computer's zone",
    });
    expect(suggestTimeZone('Chicago, IL')).toEqual({ zone: 'America/Chicago', source: 'suggested from the address' });
  });
});

describe('the zone choice', () => {
  it('names zones in words with their abbreviation, never "(UTC)"', () => {
    const january = Date.UTC(2026, 0, 15);
    expect(timeZoneLabel('America/Chicago', january)).toBe('Central Time – Chicago (CST)');
    expect(timeZoneLabel('America/Chicago', Date.UTC(2026, 6, 15))).toBe('Central Time – Chicago (CDT)');
    expect(timeZoneLabel('UTC')).not.toContain('(UTC)');
  });

  it('offers only zones the contract accepts, the US ones first, each once', () => {
    const zones = timeZoneGroups().flatMap((group) => group.zones.map(({ zone }) => zone));
    expect(timeZoneGroups()[0]!.zones.map(({ zone }) => zone)).toContain('America/Chicago');
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones.filter((zone) => !isTimeZone(zone))).toEqual([]);
  });
});
