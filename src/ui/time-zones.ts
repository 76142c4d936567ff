import { viewerTimeZone, zoneAbbreviation } from './zoned-time';

/**
 * The time zone choice of a location: every IANA zone the browser knows, named in words, and a suggestion read from
 * the address. A new location has no zone until someone picks one: a default (the browser's, or UTC) was saved
 * unnoticed and put every time of the location hours off.
 */

/** The states (and DC, Puerto Rico) on each zone's clock: where a state spans two, the zone most of its people live in. */
const ZONE_STATES: Record<string, readonly string[]> = {
  'America/New_York': ['CT', 'DE', 'DC', 'FL', 'GA', 'KY', 'ME', 'MD', 'MA', 'NH', 'NJ', 'NY', 'NC', 'OH', 'PA', 'RI', 'SC', 'VT', 'VA', 'WV'],
  'America/Chicago': ['AL', 'AR', 'IL', 'IA', 'KS', 'LA', 'MN', 'MS', 'MO', 'NE', 'ND', 'OK', 'SD', 'TN', 'TX', 'WI'],
  'America/Denver': ['CO', 'MT', 'NM', 'UT', 'WY'],
  'America/Los_Angeles': ['CA', 'NV', 'OR', 'WA'],
  'America/Phoenix': ['AZ'],
  'America/Boise': ['ID'],
  'America/Detroit': ['MI'],
  'America/Indiana/Indianapolis': ['IN'],
  'America/Anchorage': ['AK'],
  'Pacific/Honolulu': ['HI'],
  'America/Puerto_Rico': ['PR'],
};

/** Each state's zone, read off the table above. */
const STATE_ZONES: Record<string, string> = Object.fromEntries(
  Object.entries(ZONE_STATES).flatMap(([zone, states]) => states.map((state) => [state, zone])),
);

/** States written out, and cities whose state a person often leaves off. */
const PLACE_ZONES: Record<string, string> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO', connecticut: 'CT',
  delaware: 'DE', florida: 'FL', georgia: 'GA', hawaii: 'HI', idaho: 'ID', illinois: 'IL', indiana: 'IN', iowa: 'IA',
  kansas: 'KS', kentucky: 'KY', louisiana: 'LA', maine: 'ME', maryland: 'MD', massachusetts: 'MA', michigan: 'MI',
  minnesota: 'MN', mississippi: 'MS', missouri: 'MO', montana: 'MT', nebraska: 'NE', nevada: 'NV',
  'new hampshire': 'NH', 'new jersey': 'NJ', 'new mexico': 'NM', 'new york': 'NY', 'north carolina': 'NC',
  'north dakota': 'ND', ohio: 'OH', oklahoma: 'OK', oregon: 'OR', pennsylvania: 'PA', 'rhode island': 'RI',
  'south carolina': 'SC', 'south dakota': 'SD', tennessee: 'TN', texas: 'TX', utah: 'UT', vermont: 'VT',
  virginia: 'VA', washington: 'WA', 'west virginia': 'WV', wisconsin: 'WI', wyoming: 'WY', 'puerto rico': 'PR',
  chicago: 'IL', 'los angeles': 'CA', 'san francisco': 'CA', seattle: 'WA', denver: 'CO', phoenix: 'AZ',
  boston: 'MA', atlanta: 'GA', miami: 'FL', dallas: 'TX', houston: 'TX', austin: 'TX', 'las vegas': 'NV',
  portland: 'OR', detroit: 'MI', honolulu: 'HI', anchorage: 'AK', philadelphia: 'PA', minneapolis: 'MN',
};

/**
 * The zone an address points to, or null: the two-letter state before a ZIP code or at the end ("…, Chicago, IL
 * 60601"), else a state or city named in it. A suggestion only: the person still chooses.
 */
export function zoneFromAddress(address: string): string | null {
  const code = /(?:^|[\s,])([A-Za-z]{2})\.?(?:\s+\d{5}(?:-\d{4})?)?\s*(?:,?\s*(?:USA?|United States))?\s*$/.exec(address.trim());
  const state = code?.[1]?.toUpperCase();
  if (state && STATE_ZONES[state]) return STATE_ZONES[state];
  const words = address.toLowerCase().replace(/[^a-z]+/g, ' ');
  // Longest names first, so "west virginia" wins over "virginia" and "new york" over "york".
  const named = Object.keys(PLACE_ZONES)
    .sort((a, b) => b.length - a.length)
    .find((place) => ` ${words} `.includes(` ${place} `));
  return named ? STATE_ZONES[PLACE_ZONES[named]!]! : null;
}

export interface ZoneSuggestion {
  zone: string;
  /** Where it comes from, in words: "suggested from the address", "this computer's zone". */
  source: string;
}

/** What to offer for a location at `address`: the address's zone, else the zone this browser runs in. */
export function suggestTimeZone(address: string): ZoneSuggestion | null {
  const fromAddress = zoneFromAddress(address);
  if (fromAddress) return { zone: fromAddress, source: 'suggested from the address' };
  const own = viewerTimeZone();
  return own ? { zone: own, source: "this computer's zone" } : null;
}

/** "Central Time – Chicago (CST)": the zone's name in words, its city, and its abbreviation now. */
export function timeZoneLabel(zone: string, at = Date.now()): string {
  // Not "(UTC)": that is how a time in UTC is marked, and no screen shows one unasked.
  if (zone === 'UTC') return 'Coordinated Universal Time – UTC';
  const city = zone.split('/').at(-1)!.replace(/_/g, ' ');
  let name = zone;
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(at);
    name = parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
  } catch {
    return zone;
  }
  const abbreviation = zoneAbbreviation(zone, at);
  const shown = abbreviation && abbreviation !== name && abbreviation !== 'UTC';
  return `${name} – ${city}${shown ? ` (${abbreviation})` : ''}`;
}

export interface ZoneGroup {
  label: string;
  zones: { zone: string; label: string }[];
}

/** "Europe – Berlin", "America – Argentina – Buenos Aires": the zone's own name, in words. */
const placeLabel = (zone: string) => zone.replace(/_/g, ' ').split('/').join(' – ');

let groups: ZoneGroup[] | undefined;
/**
 * The zones to choose from (computed once, on first use): the United States' first (where the locations are), named
 * as people say them, then every other zone the browser knows, by place. Naming all ~420 zones the long way takes a
 * formatter each (about a second): only the chosen one gets that (see TimeZoneSelect).
 */
export function timeZoneGroups(): ZoneGroup[] {
  if (groups) return groups;
  const us = Object.keys(ZONE_STATES);
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const others = [...new Set([...known, 'UTC'])].filter((zone) => !us.includes(zone)).sort();
  groups = [
    {
      label: 'United States',
      zones: us.map((zone) => ({ zone, label: timeZoneLabel(zone) })).sort((a, b) => a.label.localeCompare(b.label, 'en')),
    },
    { label: 'Everywhere else', zones: others.map((zone) => ({ zone, label: zone === 'UTC' ? timeZoneLabel(zone) : placeLabel(zone) })) },
  ];
  return groups;
}
