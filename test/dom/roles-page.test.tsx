import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEMO_LOCATIONS } from '../../server/db/seed/demo-locations';
import type { Role } from '../../src/contract/roles';
import { permissionsFor } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const ALL = [1, 2, 3, 4, 5, 6];
/** A role editor who holds promo codes (edit) at Pike Place Market Garage (3) only. */
const editor = permissionsFor({ ur: { v: ALL, a: ALL, e: ALL }, pc: { e: [3] } }, 'role.editor@example.com');
const locations = DEMO_LOCATIONS.map(({ location_id, name }) => ({ location_id, name }));
const pikeRole: Role = {
  role_id: 7,
  name: 'Pike promotions',
  superuser: false,
  permissions: { su: false, pc: { v: [3], a: [], e: [], d: [] } },
  user_count: 2,
  version: 4,
  updated_at: '2026-11-01T12:00:00.000Z',
};

function openRoles() {
  const { api, calls } = sectionApi({
    get: {
      '/roles': pageOf([pikeRole]),
      '/roles/locations': locations,
      '/roles/7': pikeRole,
      '/roles/7/history': [],
    },
    post: {
      '/roles': (payload: unknown) => ({ ...pikeRole, role_id: 8, ...(payload as object), user_count: 0, version: 1 }),
      '/roles/7': (payload: unknown) => ({ ...pikeRole, ...(payload as object), version: 5 }),
    },
  });
  renderConsole('/role-Config', { permissions: editor, api });
  return { calls };
}

describe('the role editor', () => {
  it('lists roles with their holders and what they grant in words', async () => {
    openRoles();
    const table = await screen.findByRole('table', { name: 'Roles' });
    const row = within(table).getByRole('row', { name: /Pike promotions/ });
    expect(row).toHaveTextContent('Promo codes: view at Pike Place Market Garage');
    expect(row).toHaveTextContent('2');
  });

  it('offers only what the editor holds, says the role in words, and shows the changes before saving them', async () => {
    const { calls } = openRoles();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Pike promotions' }));
    const panel = await screen.findByRole('region', { name: 'Edit role Pike promotions' });
    const pike = within(panel).getByRole('combobox', { name: 'Promo codes at Pike Place Market Garage' });
    expect(within(pike).getAllByRole('option').map((option) => option.textContent)).toEqual(['None', 'View', 'Add', 'Edit']);
    expect(within(panel).queryByRole('combobox', { name: 'Promo codes at Union Station Garage' })).toBeNull();
    expect(within(panel).queryByRole('combobox', { name: /^Locations at/ })).toBeNull();

    await userEvent.selectOptions(pike, 'edit');
    expect(within(panel).getByText('Promo codes: edit at Pike Place Market Garage')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Review changes' }));
    const diff = within(panel).getByRole('status');
    expect(within(diff).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Adds Promo codes: add at Pike Place Market Garage',
      'Adds Promo codes: edit at Pike Place Market Garage',
    ]);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toEqual({
        method: 'POST',
        path: '/roles/7',
        payload: { name: 'Pike promotions', permissions: { su: false, pc: { v: [], a: [], e: [3], d: [] } }, version: 4 },
      }),
    );
  });

  it('"All my locations" sets a level only where the editor may', async () => {
    openRoles();
    await userEvent.click(await screen.findByRole('button', { name: 'New role' }));
    const panel = await screen.findByRole('region', { name: 'New role' });
    await userEvent.selectOptions(within(panel).getByRole('combobox', { name: 'Promo codes at all my locations' }), 'view');
    expect(within(panel).getByRole('combobox', { name: 'Promo codes at Pike Place Market Garage' })).toHaveValue('view');
    // The summary: promo codes at Pike only, nothing at the locations the editor does not hold them.
    expect(within(panel).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Promo codes: view at Pike Place Market Garage',
    ]);
  });

  it('is read-only for a viewer', async () => {
    const { api } = sectionApi({
      get: { '/roles': pageOf([pikeRole]), '/roles/locations': locations, '/roles/7': pikeRole, '/roles/7/history': [] },
    });
    renderConsole('/role-Config', { permissions: permissionsFor({ ur: { v: [1] } }), api });
    await userEvent.click(await screen.findByRole('button', { name: 'View Pike promotions' }));
    const panel = await screen.findByRole('region', { name: 'Pike promotions' });
    expect(within(panel).queryAllByRole('combobox')).toEqual([]);
    expect(within(panel).queryByRole('button', { name: 'Review changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();
  });
});
