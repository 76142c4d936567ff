import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { StaffUser } from '../../src/contract/users';
import { permissionsFor } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

// The viewer is in Chicago: a staff member's last sign-in is shown on their clock, whatever zone the test runs in.
vi.mock('../../src/ui/zoned-time', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/ui/zoned-time')>()),
  viewerTimeZone: () => 'America/Chicago',
}));

const ALL = [1, 2, 3, 4, 5, 6];
const ME = 'user.admin@example.com';
const staff = (id: number, email: string, changes: Partial<StaffUser> = {}): StaffUser => ({
  user_id: id,
  email,
  display_name: email.split('@')[0]!,
  role_id: 3,
  role_name: 'Promotions',
  role_superuser: false,
  location_ids: [3],
  location_names: ['Pike Place Market Garage'],
  status: 'active',
  last_sign_in_at: null,
  linked: true,
  version: 2,
  updated_at: '2026-11-01T12:00:00.000Z',
  ...changes,
});
const priya = staff(5, 'priya@example.com', { display_name: 'Priya Promo' });
const owen = staff(6, 'owen@example.com', {
  display_name: 'Owen Ops',
  location_ids: [1, 2, 3, 4],
  location_names: ['Chicago Loop', 'Navy Pier East Lot', 'Pike Place Market Garage', 'Union Station Garage'],
  last_sign_in_at: '2026-11-01T12:00:00.000Z',
});
const roles = [
  { role_id: 3, name: 'Promotions', superuser: false, holders: ['Owen Ops', 'Priya Promo'], holder_count: 2 },
  { role_id: 4, name: 'Finance', superuser: false, holders: [], holder_count: 0 },
  { role_id: 5, name: 'Enforcement officer – Chicago', superuser: false, holders: ['Ana Ruiz', 'Bo Chen'], holder_count: 7 },
];
const notFound = () => {
  throw new ApiError('Staff member 404 not found.', { status: 404, code: 'NotFound' });
};

function openUsers(
  post: Record<string, unknown> = {},
  record: Parameters<typeof permissionsFor>[0] = { u: { v: ALL, a: ALL, e: ALL }, pc: { e: [3] } },
  url = '/user-config',
  get: Record<string, unknown> = {},
) {
  const { api, calls } = sectionApi({
    get: {
      '/users': pageOf([priya, owen, staff(9, ME, { display_name: 'Me Myself' })]),
      '/users/assignable-roles': roles,
      '/users/5': priya,
      '/users/5/history': [],
      '/users/404': notFound,
      '/users/404/history': notFound,
      ...get,
    },
    post,
  });
  const rendered = renderConsole(url, { permissions: permissionsFor(record, ME), api });
  return { calls, ...rendered };
}

describe('the users page', () => {
  it('lists staff with role, locations and status; no Edit on one’s own row', async () => {
    openUsers();
    const table = await screen.findByRole('table', { name: 'Staff members' });
    expect(within(table).getByRole('row', { name: /Priya Promo/ })).toHaveTextContent('Pike Place Market Garage');
    expect(within(table).getByRole('button', { name: 'Edit Priya Promo' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Edit Me Myself' })).toBeNull();
  });

  it('summarises many locations on one line, the full list in the title; the last sign-in on the viewer’s clock', async () => {
    openUsers();
    const table = await screen.findByRole('table', { name: 'Staff members' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent?.replace(/[▲▼↕]/g, ''))).toEqual([
      'Name',
      'E-mail',
      'Role',
      'Locations',
      'Status',
      'Last sign-in',
      'Actions',
    ]);
    const row = within(table).getByRole('row', { name: /Owen Ops/ });
    const locations = within(row).getByTitle('Chicago Loop, Navy Pier East Lot, Pike Place Market Garage, Union Station Garage');
    // What is seen: the first and how many more; what a screen reader reads: all four.
    expect([...locations.querySelectorAll('[aria-hidden="true"]')].map((part) => part.textContent).join('')).toBe(
      'Chicago Loop, +3 more',
    );
    expect(within(locations).getByText(/Union Station Garage/)).toHaveClass('visually-hidden');
    // 12:00 UTC on Nov 1, 2026 is 6:00 AM in Chicago (CST from that morning); no ISO text, no "(UTC)".
    expect(row).toHaveTextContent('Nov 1, 2026, 6:00 AM CST');
    expect(table.textContent).not.toMatch(/UTC|\d{4}-\d{2}-\d{2}T/);
  });

  it('opens Edit at its own address, which a reload (or a copied link) opens again; closing removes it', async () => {
    const first = openUsers({}, undefined, '/user-config?status=active');
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    expect(await screen.findByRole('region', { name: 'Edit Priya Promo' })).toBeInTheDocument();
    await waitFor(() => expect(first.router.state.location.search).toEqual({ status: 'active', edit: 5 }));
    const address = first.router.state.location.href;
    expect(address).toBe('/user-config?status=active&edit=5');
    first.unmount();

    // The same address in a new page: the editor opens from the URL alone, the list's filter kept.
    const second = openUsers({}, undefined, address);
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    expect(within(panel).getByLabelText('Name')).toHaveValue('Priya Promo');
    expect(within(panel).getByLabelText('Role')).toHaveValue('3');
    expect(second.calls.some((call) => call.path === '/users' && (call.payload as { edit?: unknown }).edit !== undefined)).toBe(false);
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit Priya Promo' })).toBeNull());
    expect(second.router.state.location.href).toBe('/user-config?status=active');
  });

  it('says a staff member that is not there is not found, with the way back to the list', async () => {
    const { router } = openUsers({}, undefined, '/user-config?q=pri&edit=404');
    const panel = await screen.findByRole('region', { name: 'Staff member not found' });
    expect(within(panel).queryByRole('button', { name: 'Retry' })).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Back to the staff list' }));
    await waitFor(() => expect(router.state.location.href).toBe('/user-config?q=pri'));
    expect(screen.queryByRole('region', { name: 'Staff member not found' })).toBeNull();
    expect(await screen.findByRole('table', { name: 'Staff members' })).toBeInTheDocument();
  });

  it('offers Retry when the staff member could not be loaded, and opens it once it can', async () => {
    let answers = 0;
    openUsers({}, undefined, '/user-config?edit=5', {
      '/users/5': () => {
        answers += 1;
        if (answers === 1) throw new ApiError('The server is busy.', { status: 503 });
        return priya;
      },
    });
    const panel = await screen.findByRole('region', { name: 'Could not open this staff member' });
    expect(panel).toHaveTextContent('The server is busy.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Edit Priya Promo' })).toBeInTheDocument();
  });

  it('does not open one’s own account from its address', async () => {
    openUsers({}, undefined, '/user-config?edit=9', { '/users/9': staff(9, ME, { display_name: 'Me Myself' }), '/users/9/history': [] });
    const panel = await screen.findByRole('region', { name: 'Could not open this staff member' });
    expect(panel).toHaveTextContent('You cannot change your own account');
    expect(within(panel).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('invites, placing the server’s field errors, then shows the set-password link', async () => {
    let attempts = 0;
    const { calls, router } = openUsers({
      '/users': (payload: { email: string }) => {
        attempts += 1;
        if (attempts === 1) {
          throw new ApiError('Invalid request body', { status: 400, data: { fieldErrors: { email: `${payload.email} is a staff member already.` } } });
        }
        return { user: staff(12, payload.email, { display_name: 'New Person', role_name: 'Promotions' }), setPasswordLink: 'http://auth.test/set?oob=1' };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const panel = await screen.findByRole('region', { name: 'Invite a staff member' });
    expect(router.state.location.href).toBe('/user-config?invite=1');
    await userEvent.type(within(panel).getByLabelText('E-mail'), 'priya@example.com');
    await userEvent.type(within(panel).getByLabelText('Name'), 'New Person');
    await userEvent.selectOptions(within(panel).getByLabelText('Role'), 'Promotions');
    await userEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }));
    expect(await within(panel).findByText('priya@example.com is a staff member already.')).toBeInTheDocument();
    expect(within(panel).getByLabelText('E-mail')).toHaveValue('priya@example.com');

    await userEvent.clear(within(panel).getByLabelText('E-mail'));
    await userEvent.type(within(panel).getByLabelText('E-mail'), 'new.person@example.com');
    await userEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }));
    expect(await within(panel).findByLabelText('Set-password link')).toHaveValue('http://auth.test/set?oob=1');
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.payload).toEqual({
      email: 'new.person@example.com',
      display_name: 'New Person',
      role_id: 3,
    });
    await userEvent.click(within(panel).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.href).toBe('/user-config'));
  });

  it('refuses a bad e-mail in the form, sending nothing', async () => {
    const { calls } = openUsers();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const panel = await screen.findByRole('region', { name: 'Invite a staff member' });
    await userEvent.type(within(panel).getByLabelText('E-mail'), 'not-an-email');
    await userEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }));
    expect(await within(panel).findByText('Enter an e-mail address such as name@example.com.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('disables after asking, from the version shown', async () => {
    const { calls } = openUsers({ '/users/5/status': { ...priya, status: 'disabled', version: 3 } });
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disable Priya Promo?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/users/5/status')?.payload).toEqual({ status: 'disabled', version: 2 }),
    );
  });

  it('offers to delete an invitation nobody used only with users delete, after asking', async () => {
    const { calls, router } = openUsers({ '/users/5/delete': { deleted: true } }, { u: { d: ALL }, pc: { e: [3] } });
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Delete invitation' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Priya Promo?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/users/5/delete')?.payload).toEqual({ version: 2 }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit Priya Promo' })).toBeNull());
    expect(router.state.location.href).toBe('/user-config');
  });

  it('does not offer it without users delete', async () => {
    openUsers();
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    expect(within(panel).queryByRole('button', { name: 'Delete invitation' })).toBeNull();
  });

  describe('roles are shared: the form says with whom, and Save as new role', () => {
    const holdersOf = (panel: HTMLElement) => panel.querySelector('.role-holders')?.textContent ?? null;

    it('names who else holds the chosen role when inviting, and nobody for a role nobody holds', async () => {
      openUsers();
      await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
      const panel = await screen.findByRole('region', { name: 'Invite a staff member' });
      expect(holdersOf(panel)).toBeNull();
      await userEvent.selectOptions(within(panel).getByLabelText('Role'), 'Enforcement officer – Chicago');
      expect(holdersOf(panel)).toMatch(/^Also held by: Ana Ruiz, Bo Chen and 5 more\./);
      // Tied to the select, so a screen reader hears it with the choice.
      const described = within(panel).getByLabelText('Role').getAttribute('aria-describedby')!;
      expect(document.getElementById(described.split(' ')[0]!)).toHaveTextContent('Also held by: Ana Ruiz');
      await userEvent.selectOptions(within(panel).getByLabelText('Role'), 'Finance');
      expect(holdersOf(panel)).toBeNull();
    });

    it('does not count the person edited among the holders of their own role', async () => {
      openUsers({}, undefined, '/user-config?edit=5');
      const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
      expect(holdersOf(panel)).toMatch(/^Also held by: Owen Ops\./);
    });

    const promotions = {
      role_id: 3,
      name: 'Promotions',
      superuser: false,
      permissions: { su: false, pc: { v: [3], a: [3], e: [], d: [] } },
      user_count: 2,
      version: 1,
      updated_at: '2026-11-01T12:00:00.000Z',
    };
    const roleEditor = { u: { v: ALL, a: ALL, e: ALL }, ur: { a: ALL }, pc: { e: [3] } };

    it('offers Save as new role only with user roles add', async () => {
      openUsers({}, undefined, '/user-config?edit=5');
      const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
      expect(within(panel).queryByRole('button', { name: 'Save as new role…' })).toBeNull();
    });

    it('creates a named role from the current access as changed, for this person only, placing a taken name at the field', async () => {
      let attempts = 0;
      const { calls } = openUsers(
        {
          '/users/5/new-role': () => {
            attempts += 1;
            if (attempts === 1) {
              throw new ApiError('Invalid request body', {
                status: 400,
                data: { fieldErrors: { 'role.name': 'A role named "Finance" already exists (names ignore case).' } },
              });
            }
            return { ...priya, role_id: 20, role_name: 'Promotions lead – Seattle', version: 3 };
          },
        },
        roleEditor,
        '/user-config?edit=5',
        { '/roles/locations': [{ location_id: 3, name: 'Pike Place Market Garage' }], '/roles/3': promotions },
      );
      const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
      await userEvent.click(within(panel).getByRole('button', { name: 'Save as new role…' }));
      const form = await screen.findByRole('region', { name: 'Save as new role' });
      expect(form).toHaveTextContent('Priya Promo gets the new role alone; “Promotions” and everyone holding it stay as they are.');
      const edit = await within(form).findByRole('checkbox', { name: 'Promo codes – edit – Pike Place Market Garage' });
      expect(edit).not.toBeChecked();
      expect(within(form).getByRole('checkbox', { name: 'Promo codes – add – Pike Place Market Garage' })).toBeChecked();
      await userEvent.click(edit);
      await userEvent.type(within(form).getByLabelText('New role name'), 'Finance');
      await userEvent.click(within(form).getByRole('button', { name: 'Create role and give it to Priya Promo' }));
      expect(await within(form).findByText('A role named "Finance" already exists (names ignore case).')).toBeInTheDocument();
      await userEvent.clear(within(form).getByLabelText('New role name'));
      await userEvent.type(within(form).getByLabelText('New role name'), 'Promotions lead – Seattle');
      await userEvent.click(within(form).getByRole('button', { name: 'Create role and give it to Priya Promo' }));
      await waitFor(() => expect(screen.queryByRole('region', { name: 'Save as new role' })).toBeNull());
      const sent = calls.filter((call) => call.path === '/users/5/new-role').at(-1)?.payload as {
        version: number;
        role: { name: string; permissions: { pc: unknown } };
      };
      expect(sent.version).toBe(2);
      expect(sent.role.name).toBe('Promotions lead – Seattle');
      // The matrix keeps each location at its highest level (edit includes view and add).
      expect(sent.role.permissions.pc).toEqual({ v: [], a: [], e: [3], d: [] });
      // The shared role itself was never written.
      expect(calls.some((call) => call.method === 'POST' && call.path.startsWith('/roles'))).toBe(false);
    });
  });
});
