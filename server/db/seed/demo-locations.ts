import type { LocationSeed } from '../../../src/contract/locations';

/**
 * Six garages and lots in US cities, with stable ids 1..6 so that demo permissions, tests and the console can name
 * them. Several time zones, so that time-zone handling shows up in development.
 */
export const DEMO_LOCATIONS = [
  {
    location_id: 1,
    name: 'Union Station Garage',
    address: '225 S Canal St, Chicago, IL 60606',
    time_zone: 'America/Chicago',
    capacity: 420,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 10,
  },
  {
    location_id: 2,
    name: 'Navy Pier East Lot',
    address: '600 E Grand Ave, Chicago, IL 60611',
    time_zone: 'America/Chicago',
    capacity: 310,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 15,
  },
  {
    location_id: 3,
    name: 'Pike Place Market Garage',
    address: '1531 Western Ave, Seattle, WA 98101',
    time_zone: 'America/Los_Angeles',
    capacity: 550,
    status: 'active',
    enforcement_enabled: false,
    grace_period_minutes: 5,
  },
  {
    location_id: 4,
    name: 'Back Bay Center Garage',
    address: '100 Clarendon St, Boston, MA 02116',
    time_zone: 'America/New_York',
    capacity: 680,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 10,
  },
  {
    location_id: 5,
    name: 'LoDo Market Street Lot',
    address: '1900 Market St, Denver, CO 80202',
    time_zone: 'America/Denver',
    capacity: 140,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 0,
  },
  {
    location_id: 6,
    name: 'Sky Harbor Economy Lot',
    address: '2801 E Sky Harbor Blvd, Phoenix, AZ 85034',
    time_zone: 'America/Phoenix',
    capacity: 1200,
    status: 'inactive',
    enforcement_enabled: false,
    grace_period_minutes: 20,
  },
] as const satisfies readonly LocationSeed[];

export const DEMO_LOCATION_IDS = DEMO_LOCATIONS.map((location) => location.location_id);
