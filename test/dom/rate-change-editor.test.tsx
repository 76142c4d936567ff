import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { RateChangeDetail, RateLocation } from '../../src/contract/rates';
import type { RateSet } from '../../src/rates/rate-set';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

const locations = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' },
];
// Every day: $1.00 a quarter hour until 18:00, $5.00 flat after.
const week = (dayPrice: number): RateSet => ({
  bands: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [
    { day, startMinute: 0, endMinute: 1080, pricing: 'per_increment' as const, priceCents: dayPrice },
    { day, startMinute: 1080, endMinute: 1440, pricing: 'flat' as const, priceCents: 500 },
  ]),
  dailyMaxCents: null,
  maxStayMinutes: null,
  events: [],
});
const detail = (id: number, rateSet: RateSet, changes: Partial<RateChangeDetail> = {}): RateChangeDetail => ({
  rate_set_id: id,
  location_id: 1,
  location_name: 'Union Station Garage',
  time_zone: 'America/Chicago',
  effective_at: '2025-01-01T06:00:00.000Z',
  status: 'applied',
  reason: 'Opening rates',
  created_at: '2025-01-01T00:00:00.000Z',
  created_by: null,
  cancelled_at: null,
  cancelled_by: null,
  rate_set: rateSet,
  ...changes,
});
const ratesAt = (locationId: number, changes: Partial<RateLocation> = {}): RateLocation => ({
  location_id: locationId,
  name: locations.find((location) => location.location_id === locationId)!.name,
  time_zone: locations.find((location) => location.location_id === locationId)!.time_zone,
  config: { currency: 'USD', incrementMinutes: 15, rounding: 'up', graceMinutes: 0, taxBasisPoints: 0, dailyMaximum: 'rolling_24h' },
  config_version: 1,
  schedule_version: 3,
  current: detail(10 + locationId, week(locationId === 1 ? 100 : 300), { location_id: locationId }),
  next: null,
  ...changes,
});

function open(url: string, post: Record<string, unknown> = {}, permissions = personaPermissions('admin'), get: Record<string, unknown> = {}) {
  const { api, calls } = sectionApi({
    get: {
      '/rates/locations': locations,
      '/rates/locations/1': ratesAt(1),
      '/rates/locations/3': ratesAt(3),
      '/rates/changes': { rows: [], total: 0, totalIsLowerBound: false, page: 1, pageSize: 25 },
      ...get,
    },
    post,
  });
  return { ...renderConsole(url, { permissions, api }), calls };
}

const bandRow = (n: number) => screen.getByRole('combobox', { name: `Band ${n} day` }).closest('tbody')!;

describe('Edit Rate Change', () => {
  it('starts from the set in force and shows every problem at its band as it is typed', async () => {
    open('/rates/changes/edit/1');
    expect(await screen.findByText('No problems: every minute of the week has exactly one band.')).toBeInTheDocument();
    expect(screen.getByLabelText('Band 1 price')).toHaveValue('1.00');
    // Monday's day band now ends at 17:00: a gap until the evening band.
    await userEvent.clear(screen.getByLabelText('Band 1 end'));
    await userEvent.type(screen.getByLabelText('Band 1 end'), '17:00');
    expect(within(bandRow(1)).getByText('Monday 17:00–18:00: no band covers this time.')).toBeInTheDocument();
    expect(screen.getByLabelText('Band 1 end')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(screen.getByLabelText('Band 2 price'));
    await userEvent.type(screen.getByLabelText('Band 2 price'), '-1');
    expect(within(bandRow(2)).getByRole('listitem')).toHaveTextContent(/price/i);
    expect(screen.getByText('2 problems to fix before scheduling.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Before and after' })).getAllByText('Fix the problems first')).toHaveLength(7);
  });

  it('refuses to schedule a set with a problem, and sends nothing', async () => {
    const { calls } = open('/rates/changes/edit/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove band 2' }));
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This rate set has a problem (shown at the bands); nothing was saved.');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('previews the common stays before and after, and schedules at the location’s time with the schedule version', async () => {
    let sent: unknown;
    const { router } = open('/rates/changes/edit/1', {
      '/rates/locations/1/changes': (payload: unknown) => {
        sent = payload;
        return detail(20, week(150), { status: 'scheduled' });
      },
    });
    const price = await screen.findByLabelText('Band 1 price');
    await userEvent.clear(price);
    await userEvent.type(price, '1.5');
    const preview = screen.getByRole('region', { name: 'Before and after' });
    // 1 h on Monday morning: 4 quarter hours at $1.00 now, at $1.50 after.
    expect(within(preview).getByRole('row', { name: /^1 h/ })).toHaveTextContent('$4.00$6.00');
    // Overnight: Monday's evening flat $5.00, then Tuesday's 32 quarter hours to 08:00: Monday's day band is not met.
    expect(within(preview).getByRole('row', { name: /^Overnight/ })).toHaveTextContent('$37.00$37.00');
    await userEvent.clear(screen.getByLabelText('Takes effect at (America/Chicago)'));
    await userEvent.type(screen.getByLabelText('Takes effect at (America/Chicago)'), '2026-12-01T00:00');
    await userEvent.type(screen.getByLabelText('Why the rates change'), ' Winter prices ');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rates'));
    expect(router.state.location.search).toEqual({ locationId: 1, status: 'scheduled' });
    expect(sent).toMatchObject({ effective_at: '2026-12-01T06:00:00.000Z', reason: 'Winter prices', schedule_version: 3 });
    expect((sent as { rate_set: RateSet }).rate_set.bands[0]).toEqual({ day: 0, startMinute: 0, endMinute: 1080, pricing: 'per_increment', priceCents: 150 });
  });

  it('says who changed the schedule meanwhile, keeps the edit, and reloads their version only when asked', async () => {
    let version = 3;
    open(
      '/rates/changes/edit/1',
      {
        '/rates/locations/1/changes': () => {
          version = 4;
          throw new ApiError('changed', {
            status: 409,
            data: { currentVersion: 4, changedAt: '2026-03-02T15:00:00.000Z', changedBy: { email: 'jane@example.com', name: 'Jane Doe' } },
          });
        },
      },
      personaPermissions('admin'),
      { '/rates/locations/1': () => (version === 3 ? ratesAt(1) : ratesAt(1, { schedule_version: 4, next: detail(21, week(900), { status: 'scheduled' }) })) },
    );
    const price = await screen.findByLabelText('Band 1 price');
    await userEvent.clear(price);
    await userEvent.type(price, '2.00');
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Jane Doe changed the schedule of Union Station Garage at Mar 2, 2026, 9:00 AM CST');
    expect(screen.getByLabelText('Band 1 price')).toHaveValue('2.00');
    await userEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
    await waitFor(() => expect(screen.getByLabelText('Band 1 price')).toHaveValue('9.00'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts from the change the URL names, and keeps the location choice in the URL', async () => {
    const { router } = open('/rates/changes/edit/1/21', {}, personaPermissions('admin'), { '/rates/changes/21': detail(21, week(425)) });
    await waitFor(() => expect(screen.getByLabelText('Band 1 price')).toHaveValue('4.25'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Location' }), '3');
    await waitFor(() => expect(router.state.location.pathname).toBe('/rates/changes/edit/3'));
    await waitFor(() => expect(screen.getByLabelText('Band 1 price')).toHaveValue('3.00'));
  });

  it('places the server’s refusal at its band and its fields', async () => {
    open('/rates/changes/edit/1', {
      '/rates/locations/1/changes': () => {
        throw new ApiError('Check the rates.', {
          status: 400,
          data: { fieldErrors: { 'rate_set.bands.1.priceCents': 'Monday, band 2: refused by the server.', effective_at: 'The change cannot take effect in the past.' } },
        });
      },
    });
    await userEvent.type(await screen.findByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule change' }));
    expect(await within(bandRow(2)).findByText('Monday, band 2: refused by the server.')).toBeInTheDocument();
    expect(screen.getByLabelText('Takes effect at (America/Chicago)')).toHaveAccessibleDescription('The change cannot take effect in the past.');
  });

  it('copies another location’s rates into the edit', async () => {
    open('/rates/changes/edit/1');
    await userEvent.selectOptions(await screen.findByLabelText('Start from another location’s rates'), '3');
    await waitFor(() => expect(screen.getByLabelText('Band 1 price')).toHaveValue('3.00'));
  });

  it('is refused to a user with rate settings view only', async () => {
    open('/rates/changes/edit/1', {}, permissionsFor({ rs: { v: [1] } }));
    expect(await screen.findByText('Access denied')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Schedule change' })).toBeNull();
  });
});
