import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { demoLocation, pageOf, sectionApi } from './section-api';

// Forms re-render per keystroke in jsdom, and the machine is shared: give each test room.
vi.setConfig({ testTimeout: 20_000 });

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const combobox = (name: string) => screen.getByRole('combobox', { name }) as HTMLInputElement;
const spinbutton = (name: string) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;

/** The message tied to a control by aria-describedby. */
function describedBy(control: HTMLElement): string {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** Types by pasting: one change per field keeps these tests quick on a busy machine. */
async function enter(control: HTMLInputElement, text: string) {
  await userEvent.clear(control);
  await userEvent.click(control);
  await userEvent.paste(text);
}

async function fillNewLocation() {
  await enter(field('Name'), 'Harbor Point Garage');
  await enter(field('Address'), '1 Harbor Point, Boston, MA');
  await userEvent.selectOptions(combobox('Time zone'), 'America/New_York');
  await enter(spinbutton('Spaces'), '180');
}

describe('adding a location', () => {
  it('shows the schema’s messages at each field, tied to it, and focuses the first', async () => {
    const { api, calls } = sectionApi({});
    renderConsole('/add-location', { permissions: personaPermissions('admin'), api });
    await userEvent.click(await screen.findByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(field('Name')).toHaveAttribute('aria-invalid', 'true'));
    expect(describedBy(field('Name'))).toBe('Enter the name.');
    expect(describedBy(field('Address'))).toBe('Enter the address.');
    expect(describedBy(spinbutton('Spaces'))).toContain('The number of spaces must be a whole number.');
    expect(describedBy(combobox('Time zone'))).toContain('Choose the time zone of this location.');
    await waitFor(() => expect(field('Name')).toHaveFocus());
    expect(calls).toEqual([]);

    await userEvent.type(spinbutton('Spaces'), '-3');
    expect(describedBy(spinbutton('Spaces'))).toContain('The number of spaces cannot be negative.');
  });

  // Issue 33: the zone was the browser's (UTC on a server or in CI) unless someone noticed and changed it.
  it('starts with no time zone, refuses to save without one, and offers the address’s zone in one click', async () => {
    const { api, calls } = sectionApi({ post: { '/locations': (payload: unknown) => demoLocation(3, { location_id: 8, ...(payload as object) }) } });
    renderConsole('/add-location', { permissions: personaPermissions('admin'), api });
    await screen.findByRole('button', { name: 'Add location' });
    expect(combobox('Time zone')).toHaveValue('');
    await enter(field('Name'), 'Wacker Drive Garage');
    await enter(field('Address'), '233 S Wacker Dr, Chicago, IL 60606');
    await enter(spinbutton('Spaces'), '90');
    await userEvent.click(screen.getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(combobox('Time zone')).toHaveFocus());
    expect(combobox('Time zone')).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(combobox('Time zone'))).toContain('Choose the time zone of this location.');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Use America/Chicago (suggested from the address)' }));
    expect(combobox('Time zone')).toHaveValue('America/Chicago');
    expect(combobox('Time zone')).not.toHaveAttribute('aria-invalid');
    // Named in words, with the zone's abbreviation; the suggestion goes once taken.
    expect(within(combobox('Time zone')).getByRole('option', { selected: true })).toHaveTextContent(/^Central Time – Chicago \(C[SD]T\)$/);
    expect(screen.queryByRole('button', { name: /suggested from the address/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ time_zone: 'America/Chicago' });
  });

  it('suggests the computer’s own zone when the address names no state', async () => {
    renderConsole('/add-location', { permissions: personaPermissions('admin') });
    await enter(await screen.findByRole('textbox', { name: 'Address' }), '10 Rue de Rivoli, Paris');
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await userEvent.click(screen.getByRole('button', { name: `Use ${own} (this computer's zone)` }));
    expect(combobox('Time zone')).toHaveValue(own);
    await enter(field('Address'), '5 Corner St, Austin, TX 78701');
    expect(screen.getByRole('button', { name: 'Use America/Chicago (suggested from the address)' })).toBeInTheDocument();
  });

  it('places the server’s field errors at their fields and keeps what was typed', async () => {
    const { api } = sectionApi({
      post: {
        '/locations': () => {
          throw new ApiError('Invalid request body: name: taken', {
            status: 400,
            data: { fieldErrors: { name: 'A location named "Harbor Point Garage" already exists.' } },
          });
        },
      },
    });
    renderConsole('/add-location', { permissions: personaPermissions('admin'), api });
    await screen.findByRole('button', { name: 'Add location' });
    await fillNewLocation();
    await userEvent.click(screen.getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(describedBy(field('Name'))).toBe('A location named "Harbor Point Garage" already exists.'));
    expect(field('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Address')).toHaveValue('1 Harbor Point, Boston, MA');
    expect(spinbutton('Spaces')).toHaveValue(180);
    // Changing the field clears the server's message.
    await userEvent.type(field('Name'), ' II');
    expect(field('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('waits while sending (the button says so and cannot be pressed again), then shows the success page', async () => {
    let finish: (value: unknown) => void = () => undefined;
    const created = demoLocation(3, { location_id: 7, name: 'Harbor Point Garage' });
    const { api, calls } = sectionApi({
      post: { '/locations': () => new Promise((resolve) => (finish = resolve)) },
      get: { '/locations/7': created },
    });
    const { router } = renderConsole('/add-location', { permissions: personaPermissions('admin'), api });
    await screen.findByRole('button', { name: 'Add location' });
    await fillNewLocation();
    await userEvent.click(screen.getByRole('button', { name: 'Add location' }));
    const sending = await screen.findByRole('button', { name: 'Adding…' });
    expect(sending).toBeDisabled();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(calls[0]?.payload).toEqual({
      name: 'Harbor Point Garage',
      address: '1 Harbor Point, Boston, MA',
      time_zone: 'America/New_York',
      capacity: 180,
      status: 'active',
      enforcement_enabled: true,
      grace_period_minutes: 10,
    });
    finish(created);
    await waitFor(() => expect(router.state.location.pathname).toBe('/add-location/success'));
    expect(router.state.location.search).toEqual({ locationId: 7 });
    expect(await screen.findByText('Harbor Point Garage was added.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Harbor Point Garage' })).toHaveAttribute('href', '/edit-location/7');
    expect(screen.getByRole('link', { name: 'Add another location' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('asks before leaving with unsaved changes, and stays if asked to', async () => {
    const { router } = renderConsole('/add-location', { permissions: personaPermissions('admin') });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Half typed');
    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/add-location');
    expect(field('Name')).toHaveValue('Half typed');

    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'));
  });

  it('leaves without asking when nothing was changed', async () => {
    const { router } = renderConsole('/add-location', { permissions: personaPermissions('admin') });
    await screen.findByRole('textbox', { name: 'Name' });
    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'));
  });
});

describe('editing a location', () => {
  it('on a version conflict says who changed it and when, keeps what was typed, and reloads their version on request', async () => {
    let version = 1;
    const { api, calls } = sectionApi({
      get: {
        '/locations/3': () =>
          demoLocation(3, version === 1 ? {} : { version, name: 'Pike Place Garage (renamed)', updated_at: '2026-11-20T18:04:00Z' }),
        '/locations/3/history': [], '/locations/3/violations': [],
      },
      post: {
        '/locations/3': () => {
          version = 2;
          throw new ApiError('Location 3 was changed by Jane Doe after you opened it.', {
            status: 409,
            data: {
              currentVersion: 2,
              changedAt: '2026-11-20T18:04:00Z',
              changedBy: { email: 'jane@example.com', name: 'Jane Doe' },
            },
          });
        },
      },
    });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await enter(name as HTMLInputElement, 'My new name');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const notice = await screen.findByText(/This location was changed by Jane Doe at/);
    // Seattle time, with its zone: 18:04 UTC is 10:04 AM PST.
    expect(notice).toHaveTextContent('changed by Jane Doe at Nov 20, 2026, 10:04 AM PST');
    expect(field('Name')).toHaveValue('My new name');
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ name: 'My new name', version: 1 });

    await userEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
    await waitFor(() => expect(field('Name')).toHaveValue('Pike Place Garage (renamed)'));
    expect(screen.queryByText(/This location was changed by/)).not.toBeInTheDocument();
  });

  it('saves with the version it was made on, then shows the saved location without asking to leave', async () => {
    let saved = false;
    const { api, calls } = sectionApi({
      get: {
        '/locations/3': () => demoLocation(3, saved ? { version: 2, capacity: 600 } : {}),
        '/locations/3/history': [], '/locations/3/violations': [],
        '/locations': pageOf([]),
      },
      post: {
        '/locations/3': () => {
          saved = true;
          return demoLocation(3, { version: 2, capacity: 600 });
        },
      },
    });
    const { router } = renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    const spaces = await screen.findByRole('spinbutton', { name: 'Spaces' });
    await enter(spaces as HTMLInputElement, '600');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/locations/3' && call.method === 'GET').length).toBe(2));
    expect(calls.find((call) => call.method === 'POST')?.payload).toMatchObject({ capacity: 600, version: 1, status: 'active' });
    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'));
  });

  it('shows the details read-only, with no actions, to a user without location edit there', async () => {
    const { api } = sectionApi({ get: { '/locations/3': demoLocation(3), '/locations/3/history': [], '/locations/3/violations': [] } });
    renderConsole('/edit-location/3', { permissions: permissionsFor({ lo: { v: [3], e: [1] } }), api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Location' })).toBeInTheDocument();
    expect(screen.getByText('Pike Place Market Garage', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Save|Deactivate|Delete/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'History' })).toBeInTheDocument();
  });

  it('deactivates after confirming, naming the version it saw', async () => {
    const { api, calls } = sectionApi({
      get: { '/locations/3': demoLocation(3), '/locations/3/history': [], '/locations/3/violations': [] },
      post: { '/locations/3/status': demoLocation(3, { status: 'inactive', version: 2 }) },
    });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate Pike Place Market Garage?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/locations/3/status',
      payload: { status: 'inactive', version: 1 },
    });
  });

  it('a delete refused because of records says so in the dialog and offers to deactivate instead', async () => {
    const { api } = sectionApi({
      get: { '/locations/3': demoLocation(3), '/locations/3/history': [], '/locations/3/violations': [] },
      post: {
        '/locations/3/delete': () => {
          throw new ApiError('Location 3 has payments, bookings or monthly parkers, so it cannot be deleted; deactivate it instead.', {
            status: 409,
          });
        },
      },
    });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Pike Place Market Garage?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('cannot be deleted; deactivate it instead.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate instead' }));
    expect(await screen.findByRole('alertdialog', { name: 'Deactivate Pike Place Market Garage?' })).toBeInTheDocument();
  });

  it('keeps Deactivate and Delete away while the form holds unsaved changes', async () => {
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin') });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Address' }), ' (rear entrance)');
    expect(screen.getByRole('button', { name: 'Deactivate' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(screen.getByRole('button', { name: 'Deactivate' })).toBeEnabled();
    expect(field('Address')).toHaveValue('1531 Western Ave, Seattle, WA 98101');
  });
});
