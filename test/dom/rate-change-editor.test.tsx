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
// Monday to Friday: `dayPrice` a quarter hour until 18:00, $5.00 flat after; Saturday $0.80 and Sunday $0.60 all day.
// Twelve bands, which the editor shows as four rows.
const week = (dayPrice: number): RateSet => ({
  bands: [
    ...[5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440, pricing: 'per_increment' as const, priceCents: day === 5 ? 80 : 60 })),
    ...[0, 1, 2, 3, 4].flatMap((day) => [
      { day, startMinute: 0, endMinute: 1080, pricing: 'per_increment' as const, priceCents: dayPrice },
      { day, startMinute: 1080, endMinute: 1440, pricing: 'flat' as const, priceCents: 500 },
    ]),
  ],
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

// Found from its start field rather than by role: role queries over this large form are slow in jsdom.
const bandRow = (n: number) => screen.getByLabelText(`Band ${n} Start`).closest<HTMLElement>('fieldset.band-row')!;
const scheduleButton = () => screen.getByRole('button', { name: 'Schedule change' });
const posts = (calls: { method: string }[]) => calls.filter((call) => call.method === 'POST');

async function retype(label: string, text: string) {
  await userEvent.clear(screen.getByLabelText(label));
  await userEvent.type(screen.getByLabelText(label), text);
}

describe('Edit Rate Change', () => {
  // Many keystrokes, each re-rendering the whole editor: room for a busy machine.
  it('starts from the set in force and shows every problem at its band as it is typed', { timeout: 30_000 }, async () => {
    open('/rates/changes/edit/1');
    expect(await screen.findByText('No problems: every minute of the week has exactly one band.')).toBeInTheDocument();
    expect(screen.getByLabelText('Band 1 Price')).toHaveValue('1.00');
    // The weekdays' day band now ends at 17:00: a gap until the evening band, said once for the five days.
    await retype('Band 1 End', '17:00');
    expect(within(bandRow(1)).getByText('Monday–Friday 17:00–18:00: no band covers this time.')).toBeInTheDocument();
    expect(screen.getByLabelText('Band 1 End')).toHaveAttribute('aria-invalid', 'true');
    // Saturday joins the row: its all-day band and the row's hours overlap on Saturday only.
    await userEvent.click(within(bandRow(1)).getByRole('checkbox', { name: 'Saturday' }));
    expect(within(bandRow(3)).getByText('Saturday 00:00–17:00: bands 1 and 3 overlap; one band applies at a time.')).toBeInTheDocument();
    await userEvent.click(within(bandRow(1)).getByRole('checkbox', { name: 'Saturday' }));
    await retype('Band 2 Price', '1.234');
    expect(screen.getByLabelText('Band 2 Price')).toHaveAccessibleDescription('The price has at most two digits after the point (cents).');
    expect(screen.getByText('2 problems to fix before scheduling.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Before and after' })).getAllByText('Fix the problems first')).toHaveLength(7);
  });

  it('refuses to schedule a set with a problem, and sends nothing', async () => {
    const { calls } = open('/rates/changes/edit/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove band 2' }));
    expect(within(bandRow(1)).getByText('Monday–Friday 18:00–24:00: no band covers this time.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(scheduleButton());
    expect(screen.getByRole('alert')).toHaveTextContent('This rate set has a problem (shown at the bands); nothing was saved.');
    expect(posts(calls)).toEqual([]);
  });

  it('previews the common stays before and after, and schedules at the location’s time with the schedule version', async () => {
    let sent: unknown;
    const { router } = open('/rates/changes/edit/1', {
      '/rates/locations/1/changes': (payload: unknown) => {
        sent = payload;
        return detail(20, week(150), { status: 'scheduled' });
      },
    });
    await screen.findByLabelText('Band 1 Price');
    await retype('Band 1 Price', '1.5');
    expect(bandRow(1)).toHaveAccessibleName('Band 1: Mon–Fri 00:00–18:00 $1.50 / 15 min');
    const preview = screen.getByRole('region', { name: 'Before and after' });
    // 1 h on Monday morning: 4 quarter hours at $1.00 now, at $1.50 after.
    expect(within(preview).getByRole('row', { name: /^1 h/ })).toHaveTextContent('$4.00$6.00');
    // Overnight: Monday's evening flat $5.00, then Tuesday's 32 quarter hours to 08:00, Tuesday's price changed too.
    expect(within(preview).getByRole('row', { name: /^Overnight/ })).toHaveTextContent('$37.00$53.00');
    await retype('Takes effect at', '2030-12-02T00:00');
    await userEvent.type(screen.getByLabelText('Why the rates change'), ' Winter prices ');
    await userEvent.click(scheduleButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/rates'));
    expect(router.state.location.search).toEqual({ locationId: 1, status: 'scheduled' });
    expect(sent).toMatchObject({ effective_at: '2030-12-02T06:00:00.000Z', reason: 'Winter prices', schedule_version: 3 });
    // The one row's price is every weekday's day band; the other bands are sent as they were, one per day.
    const { bands } = (sent as { rate_set: RateSet }).rate_set;
    const expected = week(100).bands.map((band) => (band.day <= 4 && band.startMinute === 0 ? { ...band, priceCents: 150 } : band));
    expect(bands).toHaveLength(12);
    expect(new Set(bands.map((band) => JSON.stringify(band)))).toEqual(new Set(expected.map((band) => JSON.stringify(band))));
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
    await screen.findByLabelText('Band 1 Price');
    await retype('Band 1 Price', '2.00');
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(scheduleButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Jane Doe changed the schedule of Union Station Garage at Mar 2, 2026, 9:00 AM CST');
    expect(screen.getByLabelText('Band 1 Price')).toHaveValue('2.00');
    await userEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
    await waitFor(() => expect(screen.getByLabelText('Band 1 Price')).toHaveValue('9.00'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts from the change the URL names, and keeps the location choice in the URL', async () => {
    const { router } = open('/rates/changes/edit/1/21', {}, personaPermissions('admin'), { '/rates/changes/21': detail(21, week(425)) });
    await waitFor(() => expect(screen.getByLabelText('Band 1 Price')).toHaveValue('4.25'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Location' }), '3');
    await waitFor(() => expect(router.state.location.pathname).toBe('/rates/changes/edit/3'));
    await waitFor(() => expect(screen.getByLabelText('Band 1 Price')).toHaveValue('3.00'));
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
    await retype('Band 1 Price', '1.25');
    await userEvent.click(scheduleButton());
    // Stored band 1 is Monday's evening band (bands are sent by day and start): its row is the weekdays' evening.
    expect(await within(bandRow(2)).findByText('Monday, band 2: refused by the server.')).toBeInTheDocument();
    expect(screen.getByLabelText('Takes effect at')).toHaveAccessibleDescription('On the clock of Union Station Garage. The change cannot take effect in the past.');
  });

  it('copies another location’s rates into the edit', async () => {
    open('/rates/changes/edit/1');
    await userEvent.selectOptions(await screen.findByLabelText('Start from another location’s rates'), '3');
    await waitFor(() => expect(screen.getByLabelText('Band 1 Price')).toHaveValue('3.00'));
  });

  it('shows a week of Monday–Friday, Saturday and Sunday as four rows, not twelve bands', async () => {
    open('/rates/changes/edit/1');
    await screen.findByLabelText('Band 1 Price');
    const rows = screen.getAllByRole('group', { name: /^Band \d+:/ });
    const names = [
      'Band 1: Mon–Fri 00:00–18:00 $1.00 / 15 min',
      'Band 2: Mon–Fri 18:00–24:00 $5.00 flat',
      'Band 3: Sat 00:00–24:00 $0.80 / 15 min',
      'Band 4: Sun 00:00–24:00 $0.60 / 15 min',
    ];
    expect(rows).toHaveLength(names.length);
    rows.forEach((row, index) => expect(row).toHaveAccessibleName(names[index]));
    expect(within(bandRow(1)).getByRole('checkbox', { name: 'Friday' })).toBeChecked();
    expect(within(bandRow(1)).getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked();
  });

  it('cannot schedule the rates in force unchanged, and says why', async () => {
    const { calls } = open('/rates/changes/edit/1');
    await screen.findByLabelText('Band 1 Price');
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    expect(scheduleButton()).toBeDisabled();
    expect(scheduleButton()).toHaveAccessibleDescription('Nothing changed from the rates in force.');
    await retype('Band 1 Price', '1.10');
    expect(scheduleButton()).toBeEnabled();
    // Typed back to what is in force ("1" is $1.00): unchanged again.
    await retype('Band 1 Price', '1');
    expect(scheduleButton()).toBeDisabled();
    await userEvent.click(scheduleButton());
    expect(posts(calls)).toEqual([]);
  });

  it('refuses a start in the past at the field, on the location’s clock, and sends nothing', async () => {
    const { calls } = open('/rates/changes/edit/1');
    await screen.findByLabelText('Band 1 Price');
    await retype('Band 1 Price', '1.10');
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await retype('Takes effect at', '2020-01-06T09:00');
    expect(screen.getByLabelText('Takes effect at')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Takes effect at')).toHaveAccessibleDescription(/^On the clock of Union Station Garage\. This time has passed at Union Station Garage: it is .* C[SD]T there\. Choose a later time\.$/);
    await userEvent.click(scheduleButton());
    expect(posts(calls)).toEqual([]);
  });

  it('refuses a negative price at the field, in words, and sends nothing', async () => {
    const { calls } = open('/rates/changes/edit/1');
    await screen.findByLabelText('Band 1 Price');
    await retype('Band 1 Price', '-1');
    expect(screen.getByLabelText('Band 1 Price')).toHaveAccessibleDescription('The price cannot be negative.');
    expect(screen.getByLabelText('Band 1 Price')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/whole number of cents/)).toBeNull();
    await userEvent.type(screen.getByLabelText('Why the rates change'), 'Winter');
    await userEvent.click(scheduleButton());
    expect(screen.getByRole('alert')).toHaveTextContent('This rate set has a problem (shown at the bands); nothing was saved.');
    expect(posts(calls)).toEqual([]);
  });

  it('is refused to a user with rate settings view only', async () => {
    open('/rates/changes/edit/1', {}, permissionsFor({ rs: { v: [1] } }));
    expect(await screen.findByText('Access denied')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Schedule change' })).toBeNull();
  });
});
