import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { StaffUser } from '../../src/contract/users';
import { permissionsFor } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

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
const roles = [{ role_id: 3, name: 'Promotions', superuser: false }];

function openUsers(post: Record<string, unknown> = {}, record: Parameters<typeof permissionsFor>[0] = { u: { v: ALL, a: ALL, e: ALL }, pc: { e: [3] } }) {
  const { api, calls } = sectionApi({
    get: {
      '/users': pageOf([priya, staff(9, ME, { display_name: 'Me Myself' })]),
      '/users/assignable-roles': roles,
      '/users/5': priya,
      '/users/5/history': [],
    },
    post,
  });
  renderConsole('/user-config', { permissions: permissionsFor(record, ME), api });
  return { calls };
}

describe('the users page', () => {
  it('lists staff with role, locations and status; no Edit on one’s own row', async () => {
    openUsers();
    const table = await screen.findByRole('table', { name: 'Staff members' });
    expect(within(table).getByRole('row', { name: /Priya Promo/ })).toHaveTextContent('Pike Place Market Garage');
    expect(within(table).getByRole('button', { name: 'Edit Priya Promo' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Edit Me Myself' })).toBeNull();
  });

  it('invites, placing the server’s field errors, then shows the set-password link', async () => {
    let attempts = 0;
    const { calls } = openUsers({
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
    const { calls } = openUsers({ '/users/5/delete': { deleted: true } }, { u: { d: ALL }, pc: { e: [3] } });
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Delete invitation' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Priya Promo?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/users/5/delete')?.payload).toEqual({ version: 2 }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit Priya Promo' })).toBeNull());
  });

  it('does not offer it without users delete', async () => {
    openUsers();
    const table = await screen.findByRole('table', { name: 'Staff members' });
    await userEvent.click(within(table).getByRole('button', { name: 'Edit Priya Promo' }));
    const panel = await screen.findByRole('region', { name: 'Edit Priya Promo' });
    expect(within(panel).queryByRole('button', { name: 'Delete invitation' })).toBeNull();
  });
});
