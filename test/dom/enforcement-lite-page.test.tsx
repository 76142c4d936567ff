import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { LiteLocation, LiteOfficer } from '../../src/contract/enforcement-lite';
import { permissionsFor } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const SU = permissionsFor({ su: true }, 'superuser@example.com');
const lot = (id: number, name: string, changes: Partial<LiteLocation> = {}): LiteLocation => ({
  location_id: id,
  name,
  address: '5 Corner St, Austin, TX 78701',
  time_zone: 'America/Chicago',
  capacity: 40,
  grace_period_minutes: 5,
  operator_name: 'Corner Parking LLC',
  status: 'active',
  officer_count: 1,
  version: 3,
  updated_at: '2026-11-01T12:00:00.000Z',
  ...changes,
});
const officer = (id: number, email: string): LiteOfficer => ({
  user_id: id,
  email,
  display_name: 'Lite Officer',
  location_ids: [7],
  location_names: ['Corner Lot Lite'],
  status: 'active',
  last_sign_in_at: null,
  linked: true,
  version: 1,
  updated_at: '2026-11-01T12:00:00.000Z',
});

describe('the Enforcement Lite section', () => {
  it('lists lite locations, then officers, with the search in the URL and sent to the server', async () => {
    const { api, calls } = sectionApi({
      get: {
        '/enforcement-lite/locations': pageOf([lot(7, 'Corner Lot Lite')]),
        '/enforcement-lite/officers': pageOf([officer(9, 'lite.officer@example.com')]),
      },
    });
    const { router } = renderConsole('/enforcement-lite', { permissions: SU, api });
    const table = await screen.findByRole('table', { name: 'Lite locations' });
    expect(within(table).getByRole('row', { name: /Corner Lot Lite/ })).toHaveTextContent('Corner Parking LLC');

    await userEvent.click(screen.getByRole('link', { name: 'Officers' }));
    const officers = await screen.findByRole('table', { name: 'Lite officers' });
    expect(within(officers).getByRole('row', { name: /lite.officer@example.com/ })).toHaveTextContent('Corner Lot Lite');

    const filters = screen.getByRole('search', { name: 'Filter officers' });
    await userEvent.type(within(filters).getByLabelText('E-mail or name'), 'lite');
    await userEvent.selectOptions(within(filters).getByLabelText('Status'), 'disabled');
    await screen.findByRole('table', { name: 'Lite officers' });
    expect(router.state.location.search).toMatchObject({ show: 'officers', q: 'lite', status: 'disabled' });
    expect(calls.filter((call) => call.path === '/enforcement-lite/officers').at(-1)?.payload).toMatchObject({
      q: 'lite',
      status: 'disabled',
    });
  });

  it('leaves out of the request what the URL names wrongly or what belongs to the other list', async () => {
    const { api, calls } = sectionApi({ get: { '/enforcement-lite/locations': pageOf([lot(7, 'Corner Lot Lite')]) } });
    renderConsole('/enforcement-lite?sort=colour&status=disabled&page=abc&q=corner', { permissions: SU, api });
    await screen.findByRole('table', { name: 'Lite locations' });
    const sent = calls.find((call) => call.path === '/enforcement-lite/locations')?.payload as Record<string, unknown>;
    expect(sent).toMatchObject({ q: 'corner' });
    expect(sent.sort ?? null).toBeNull();
    expect(sent.status ?? null).toBeNull();
    expect(sent.page ?? null).toBeNull();
  });

  it('adds an officer: places the server’s field error, keeps what was typed, then shows the set-password link', async () => {
    let attempts = 0;
    const { api, calls } = sectionApi({
      get: { '/enforcement-lite/location-choices': [{ location_id: 7, name: 'Corner Lot Lite', status: 'active' }] },
      post: {
        '/enforcement-lite/officers': (payload: unknown) => {
          attempts += 1;
          if (attempts === 1) {
            throw new ApiError('Invalid request body', { status: 400, data: { fieldErrors: { email: 'taken@example.com is a staff member already.' } } });
          }
          return { officer: officer(12, (payload as { email: string }).email), setPasswordLink: 'http://auth.test/set?oob=1' };
        },
      },
    });
    renderConsole('/enforcement-lite/add-user', { permissions: SU, api });
    await userEvent.click(await screen.findByRole('button', { name: 'Add officer' }));
    expect(await screen.findByText('Choose at least one location.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText('E-mail'), 'taken@example.com');
    await userEvent.type(screen.getByLabelText('Name'), 'Lite Officer');
    await userEvent.click(screen.getByLabelText('Corner Lot Lite'));
    await userEvent.click(screen.getByRole('button', { name: 'Add officer' }));
    expect(await screen.findByText('taken@example.com is a staff member already.')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('taken@example.com');

    await userEvent.clear(screen.getByLabelText('E-mail'));
    await userEvent.type(screen.getByLabelText('E-mail'), 'New.Officer@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add officer' }));
    expect(await screen.findByLabelText('Set-password link')).toHaveValue('http://auth.test/set?oob=1');
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.payload).toEqual({
      email: 'new.officer@example.com',
      display_name: 'Lite Officer',
      location_ids: [7],
    });
  });

  it('says who changed a lite location first when a save meets a newer version (409), keeping the typed values', async () => {
    const { api, calls } = sectionApi({
      get: { '/enforcement-lite/locations/7': lot(7, 'Corner Lot Lite'), '/enforcement-lite/locations/7/history': [] },
      post: {
        '/enforcement-lite/locations/7': () => {
          throw new ApiError('changed', {
            status: 409,
            data: { currentVersion: 4, changedAt: '2026-11-02T18:00:00.000Z', changedBy: { email: 'ana@example.com', name: 'Ana' } },
          });
        },
      },
    });
    renderConsole('/enforcement-lite/edit-location/7', { permissions: SU, api });
    const operator = await screen.findByLabelText('Operator');
    await userEvent.clear(operator);
    await userEvent.type(operator, 'New Operator Inc');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/changed by Ana at/)).toBeInTheDocument();
    expect(screen.getByLabelText('Operator')).toHaveValue('New Operator Inc');
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ operator_name: 'New Operator Inc', version: 3 });
  });

  // Issue 33: "Add officer" ignored the first click. A message from an earlier blur ("Choose at least one location.")
  // outlived the ticked box; the mousedown on the button blurred the box, the message went, the button moved up
  // under the pointer and the click was lost. And a form holding such a stale message ignored its first submit.
  it('adds an officer with one click: nothing above the button changes when it is pressed', async () => {
    const { api, calls } = sectionApi({
      get: { '/enforcement-lite/location-choices': [{ location_id: 7, name: 'Corner Lot Lite', status: 'active' }] },
      post: {
        '/enforcement-lite/officers': (payload: unknown) => ({
          officer: officer(12, (payload as { email: string }).email),
          setPasswordLink: 'http://auth.test/set?oob=2',
        }),
      },
    });
    renderConsole('/enforcement-lite/add-user', { permissions: SU, api });
    await userEvent.type(await screen.findByLabelText('E-mail'), 'one.click@example.com');
    await userEvent.type(screen.getByLabelText('Name'), 'One Click');
    await userEvent.click(screen.getByLabelText('Corner Lot Lite'));
    expect(screen.queryByText('Choose at least one location.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Corner Lot Lite')).not.toHaveAttribute('aria-invalid');

    const button = screen.getByRole('button', { name: 'Add officer' });
    const form = button.closest('form')!;
    const before = form.textContent;
    const pointer = userEvent.setup();
    await pointer.pointer({ keys: '[MouseLeft>]', target: button });
    expect(form.textContent).toBe(before);
    await pointer.pointer({ keys: '[/MouseLeft]', target: button });
    expect(await screen.findByLabelText('Set-password link')).toHaveValue('http://auth.test/set?oob=2');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('adds an officer on the first Enter, whatever order the fields were filled in', async () => {
    const { api, calls } = sectionApi({
      get: { '/enforcement-lite/location-choices': [{ location_id: 7, name: 'Corner Lot Lite', status: 'active' }] },
      post: {
        '/enforcement-lite/officers': (payload: unknown) => ({
          officer: officer(13, (payload as { email: string }).email),
          setPasswordLink: 'http://auth.test/set?oob=3',
        }),
      },
    });
    renderConsole('/enforcement-lite/add-user', { permissions: SU, api });
    await userEvent.click(await screen.findByLabelText('Corner Lot Lite'));
    await userEvent.type(screen.getByLabelText('E-mail'), 'enter.once@example.com');
    await userEvent.type(screen.getByLabelText('Name'), 'Enter Once{Enter}');
    expect(await screen.findByLabelText('Set-password link')).toHaveValue('http://auth.test/set?oob=3');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('adds a lite location only once a time zone is chosen, offering the address’s zone in one click', async () => {
    const { api, calls } = sectionApi({
      get: { '/enforcement-lite/locations/8': lot(8, 'Austin Lite Lot'), '/enforcement-lite/locations/8/history': [] },
      post: { '/enforcement-lite/locations': (payload: unknown) => lot(8, 'Austin Lite Lot', payload as Partial<LiteLocation>) },
    });
    renderConsole('/enforcement-lite/add-location', { permissions: SU, api });
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('');
    await userEvent.type(screen.getByLabelText('Name'), 'Austin Lite Lot');
    await userEvent.type(screen.getByLabelText('Operator'), 'Corner Parking LLC');
    await userEvent.type(screen.getByLabelText('Address'), '5 Corner St, Austin, TX 78701');
    await userEvent.type(screen.getByLabelText('Spaces'), '40');
    await userEvent.click(screen.getByRole('button', { name: 'Add lite location' }));
    await waitFor(() => expect(zone).toHaveAttribute('aria-invalid', 'true'));
    expect(zone).toHaveAccessibleDescription(/Choose the time zone of this location\./);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Use America/Chicago (suggested from the address)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add lite location' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ time_zone: 'America/Chicago', capacity: 40 });
  });

  it('denies a non-superuser holding everything else', async () => {
    const all = [1, 2, 3, 4, 5, 6];
    const grant = { v: all, a: all, e: all, d: all };
    renderConsole('/enforcement-lite/add-user', {
      permissions: permissionsFor({ pc: grant, ur: grant, u: grant, rs: grant, e: grant, rp: grant, rd: grant, sd: grant, lo: grant }),
    });
    expect(await screen.findByText('Access denied')).toBeInTheDocument();
  });
});
