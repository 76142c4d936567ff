import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { RateChange } from '../../src/contract/rates';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const locations = [
  { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
  { location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' },
];
const change = (id: number, changes: Partial<RateChange> = {}): RateChange => ({
  rate_set_id: id,
  location_id: 1,
  location_name: 'Union Station Garage',
  time_zone: 'America/Chicago',
  effective_at: '2026-12-01T06:00:00.000Z',
  status: 'scheduled',
  reason: 'Winter prices',
  created_at: '2026-11-20T15:00:00.000Z',
  created_by: { email: 'jane@example.com', name: 'Jane Doe' },
  cancelled_at: null,
  cancelled_by: null,
  ...changes,
});
const rows = [
  change(12),
  change(11, { location_id: 3, location_name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles', status: 'applied', effective_at: '2026-01-01T08:00:00.000Z', reason: 'Opening rates' }),
];

function open(url: string, permissions = personaPermissions('admin'), post: Record<string, unknown> = {}) {
  const { api, calls } = sectionApi({
    get: {
      '/rates/changes': pageOf(rows),
      '/rates/locations': locations,
      '/rates/locations/1': { schedule_version: 4 },
    },
    post,
  });
  return { ...renderConsole(url, { permissions, api }), calls, api };
}

describe('Rate Changes', () => {
  it('lists each change at its location’s time, with who, why and its status', async () => {
    open('/rates');
    const table = await screen.findByRole('table', { name: 'Rate changes at your locations' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('Union Station Garage');
    expect(first).toHaveTextContent('Dec 1, 2026, 12:00 AM CST');
    expect(first).toHaveTextContent('ScheduledJane DoeWinter prices');
    expect(second).toHaveTextContent('Jan 1, 2026, 12:00 AM PST');
    expect(second).toHaveTextContent('Applied');
    // Only a scheduled change can be cancelled.
    expect(within(first!).getByRole('button', { name: /^Cancel the change of Union Station Garage/ })).toBeInTheDocument();
    expect(within(second!).queryByRole('button')).toBeNull();
    // Any change the user may edit can be the start of a new one.
    expect(within(second!).getByRole('link', { name: /^Start a new change from the rates of Pike Place/ })).toHaveAttribute('href', '/rates/changes/edit/3/11');
  });

  it('says which filters left the list empty, and clears them', async () => {
    const { api, calls } = sectionApi({ get: { '/rates/changes': pageOf([]), '/rates/locations': locations } });
    const { router } = renderConsole('/rates?status=cancelled&locationId=3&sort=location', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByText(/No rate changes match/)).toHaveTextContent('No rate changes match Location: Pike Place Market Garage and Status: Cancelled.');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'location' }));
    expect(calls.filter((call) => call.path === '/rates/changes').length).toBe(2);
  });

  it('keeps filters and sort in the URL and asks the server for exactly that', async () => {
    const { router, calls } = open('/rates');
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Status' }), 'scheduled');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'scheduled' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Location' }), '3');
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'scheduled', locationId: 3 }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/rates/changes').at(-1)?.payload).toEqual({ status: 'scheduled', locationId: 3 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Location' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ sort: 'location', dir: 'asc' }));
  });

  it('exports what the filters match, without paging', async () => {
    const { calls } = open('/rates?status=applied&page=2');
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'DOWNLOAD')).toEqual({ method: 'DOWNLOAD', path: '/rates/changes/export', payload: { status: 'applied' } }));
  });

  it('cancels a scheduled change only after confirming, with the location’s schedule version', async () => {
    const { calls } = open('/rates', personaPermissions('admin'), { '/rates/changes/12/cancel': change(12, { status: 'cancelled' }) });
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel the change of Union Station Garage/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this rate change?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: /^Cancel the change of Union Station Garage/ }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel the change' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', path: '/rates/changes/12/cancel', payload: { schedule_version: 4 } });
  });

  it('keeps the dialog open with the server’s reason when the change was applied meanwhile', async () => {
    open('/rates', personaPermissions('admin'), {
      '/rates/changes/12/cancel': () => {
        throw new ApiError('Rate change 12 has already taken effect; it cannot be cancelled.', { status: 409 });
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel the change of Union Station Garage/ }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel the change' }));
    expect(await within(screen.getByRole('alertdialog')).findByRole('alert')).toHaveTextContent('already taken effect');
  });

  it('offers no cancel and no scheduling to a user with rate settings view only', async () => {
    open('/rates', permissionsFor({ rs: { v: [1, 3] } }));
    await screen.findByRole('table', { name: 'Rate changes at your locations' });
    expect(screen.queryByRole('button', { name: /^Cancel the change/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Schedule a rate change' })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Start a new change/ })).toBeNull();
  });
});
