import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RateLocation } from '../../src/contract/rates';
import { demoRateSet } from '../../server/db/seed/demo-rates';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

const locations = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' },
];
const rateSet = demoRateSet({ locationId: 1, dayPrice: 200, eveningFlat: 1500, dailyMax: 3800, taxBasisPoints: 0 });
const ratesAt = (locationId: number): RateLocation => ({
  location_id: locationId,
  name: locations.find((location) => location.location_id === locationId)!.name,
  time_zone: locations.find((location) => location.location_id === locationId)!.time_zone,
  config: { currency: 'USD', incrementMinutes: 15, rounding: 'up', graceMinutes: 10, taxBasisPoints: 0, dailyMaximum: 'rolling_24h' },
  config_version: 1,
  schedule_version: 1,
  current: {
    rate_set_id: 10 + locationId,
    location_id: locationId,
    location_name: 'x',
    time_zone: 'America/Chicago',
    effective_at: '2025-01-01T00:00:00.000Z',
    status: 'applied',
    reason: 'Opening rates',
    created_at: '2025-01-01T00:00:00.000Z',
    created_by: null,
    cancelled_at: null,
    cancelled_by: null,
    rate_set: locationId === 1 ? rateSet : { ...rateSet, dailyMaxCents: null },
  },
  next: null,
});

function open(url: string) {
  const { api, calls } = sectionApi({
    get: { '/rates/locations': locations, '/rates/locations/1': ratesAt(1), '/rates/locations/3': ratesAt(3) },
  });
  return { ...renderConsole(url, { permissions: personaPermissions('admin'), api }), calls };
}

describe('Configure Rates', () => {
  it('shows the first location’s week, configuration and no scheduled change', async () => {
    open('/rate-selection');
    const bands = await screen.findByRole('table', { name: 'Bands by day' });
    // The seeded week's 17 bands: the weekdays' three bands and the weekend's one, each a line for its days.
    expect(within(bands).getAllByRole('row')).toHaveLength(1 + 4);
    expect(within(bands).getAllByRole('row')[2]).toHaveTextContent('Monday–Friday06:0018:00$2.00 / 15 min');
    expect(within(bands).getAllByRole('row')[4]).toHaveTextContent('Saturday, Sunday00:0024:00$1.20 / 15 min');
    expect(screen.getByRole('region', { name: 'Configuration' })).toHaveTextContent('15 min, every started increment');
    expect(screen.getByText('No change is scheduled.')).toBeInTheDocument();
  });

  it('quotes a stay with the engine and explains it line by line', async () => {
    open('/rate-selection');
    const arrival = await screen.findByLabelText('Arrival');
    const departure = screen.getByLabelText('Departure');
    // On the location's clock, named by its abbreviation (no IANA name in the label).
    expect(arrival.parentElement).toHaveTextContent(/^C[SD]T$/);
    await userEvent.clear(arrival);
    await userEvent.type(arrival, '2026-03-02T09:00');
    await userEvent.clear(departure);
    await userEvent.type(departure, '2026-03-02T10:10');
    // Monday 09:00–10:10: 5 started quarter hours at $2.00.
    expect(screen.getByText(/^Amount:/)).toHaveTextContent('Amount: $10.00 (70 minutes parked)');
    const lines = screen.getByRole('table', { name: 'How the amount is made up' });
    expect(within(lines).getAllByRole('row')[1]).toHaveTextContent('Monday 06:00–18:005$2.00$10.00');
    // A whole weekday: capped at the daily maximum.
    await userEvent.clear(departure);
    await userEvent.type(departure, '2026-03-03T08:00');
    expect(within(screen.getByRole('table', { name: 'How the amount is made up' })).getByText('Day 1: daily maximum')).toBeInTheDocument();
    await userEvent.clear(departure);
    await userEvent.type(departure, '2026-03-02T08:00');
    expect(screen.getByText('The departure must be after the arrival.')).toBeInTheDocument();
  });

  it('keeps the chosen location in the URL', async () => {
    const { router, calls } = open('/rate-selection');
    const choice = await screen.findByLabelText('Location');
    await userEvent.selectOptions(choice, '3');
    await waitFor(() => expect(router.state.location.search).toEqual({ locationId: 3 }));
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('/rates/locations/3'));
    await waitFor(() => expect(screen.getByLabelText('Arrival').parentElement).toHaveTextContent(/^P[SD]T$/));
  });
});
