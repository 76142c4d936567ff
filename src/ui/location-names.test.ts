import { describe, expect, it } from 'vitest';
import { sortedByName } from './location-names';

describe('sortedByName', () => {
  it('sorts as a person reads: case-insensitive, numbers by value, the id breaking ties', () => {
    const names = ['UX Lot', 'Union Station', 'Lot 10', 'lot 2', 'Lot 2', 'airport Garage'];
    const locations = names.map((name, index) => ({ location_id: 10 - index, name }));
    expect(sortedByName(locations).map((location) => `${location.name}#${location.location_id}`)).toEqual([
      'airport Garage#5',
      'Lot 2#6',
      'lot 2#7',
      'Lot 10#8',
      'Union Station#9',
      'UX Lot#10',
    ]);
  });

  it('leaves the given list as it was', () => {
    const locations = [{ location_id: 1, name: 'UX' }, { location_id: 2, name: 'Union' }];
    sortedByName(locations);
    expect(locations.map((location) => location.name)).toEqual(['UX', 'Union']);
  });
});
