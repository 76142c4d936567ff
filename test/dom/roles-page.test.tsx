import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEMO_LOCATIONS } from '../../server/db/seed/demo-locations';
import { ApiError } from '../../src/api/client';
import type { Role, RoleLocation } from '../../src/contract/roles';
import type { AllLocations } from '../../src/permissions/all-locations';
import type { UserPermissions } from '../../src/permissions/permissions-object';
import { permissionsFor } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const ALL = [1, 2, 3, 4, 5, 6];
/** A role editor who holds promo codes (edit) at Pike Place Market Garage (3) only. */
const editor = permissionsFor({ ur: { v: ALL, a: ALL, e: ALL }, pc: { e: [3] } }, 'role.editor@example.com');
const demoLocations = DEMO_LOCATIONS.map(({ location_id, name }) => ({ location_id, name }));
const pikeRole: Role = {
  role_id: 7,
  name: 'Pike promotions',
  superuser: false,
  permissions: { su: false, pc: { v: [3], a: [], e: [], d: [] } },
  all_locations: {},
  user_count: 2,
  version: 4,
  updated_at: '2026-11-01T12:00:00.000Z',
};

function openRoles(
  url = '/role-Config',
  {
    permissions = editor,
    locations = demoLocations,
    mine = {},
  }: { permissions?: UserPermissions; locations?: RoleLocation[]; mine?: AllLocations } = {},
) {
  let created: Role | null = null;
  const { api, calls } = sectionApi({
    get: {
      '/roles/mine/all-locations': { su: permissions.permissions.su, all_locations: mine },
      '/roles': pageOf([pikeRole]),
      '/roles/locations': locations,
      '/roles/7': pikeRole,
      '/roles/7/history': [],
      '/roles/8': () => created,
      '/roles/8/history': [],
      '/roles/404': () => {
        throw new ApiError('Role 404 not found.', { status: 404, code: 'NotFound' });
      },
      '/roles/404/history': [],
    },
    post: {
      '/roles': (payload: unknown) => (created = { ...pikeRole, role_id: 8, ...(payload as object), user_count: 0, version: 1 }),
      '/roles/7': (payload: unknown) => ({ ...pikeRole, ...(payload as object), version: 5 }),
    },
  });
  const rendered = renderConsole(url, { permissions, api });
  return { calls, ...rendered };
}

// By label, not by role: a role query over the whole editor costs seconds in jsdom.
const box = (panel: HTMLElement, name: string) => within(panel).getByLabelText<HTMLInputElement>(name, { selector: 'input[type="checkbox"]' });

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
    // It opens at the location the role reaches; each level includes the ones before it.
    expect(within(panel).getByLabelText('Location')).toHaveValue('3');
    expect(box(panel, 'Promo codes – view – Pike Place Market Garage')).toBeChecked();
    expect(box(panel, 'Promo codes – edit – Pike Place Market Garage')).toBeEnabled();
    // Above what the editor holds, and features they do not hold: shown, not offered.
    expect(box(panel, 'Promo codes – delete – Pike Place Market Garage')).toBeDisabled();
    expect(box(panel, 'Locations – view – Pike Place Market Garage')).toBeDisabled();
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), 'Union Station Garage');
    expect(box(panel, 'Promo codes – view – Union Station Garage')).toBeDisabled();
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), '3');

    await userEvent.click(box(panel, 'Promo codes – edit – Pike Place Market Garage'));
    expect(box(panel, 'Promo codes – add – Pike Place Market Garage')).toBeChecked();
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
        payload: { name: 'Pike promotions', permissions: { su: false, pc: { v: [], a: [], e: [3], d: [] } }, all_locations: {}, version: 4 },
      }),
    );
  });

  it('unticking a level keeps the ones below it', async () => {
    openRoles('/role-Config?new=1');
    const panel = await screen.findByRole('region', { name: 'New role' });
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), 'Pike Place Market Garage');
    await userEvent.click(box(panel, 'Promo codes – edit – Pike Place Market Garage'));
    await userEvent.click(box(panel, 'Promo codes – add – Pike Place Market Garage'));
    expect(box(panel, 'Promo codes – view – Pike Place Market Garage')).toBeChecked();
    expect(box(panel, 'Promo codes – edit – Pike Place Market Garage')).not.toBeChecked();
    expect(within(panel).getByText('Promo codes: view at Pike Place Market Garage')).toBeInTheDocument();
  });

  it('"Same access at all my locations" copies a location’s access only where the editor may grant it', async () => {
    const twoLots = permissionsFor({ ur: { v: ALL, a: ALL, e: ALL }, pc: { e: [3, 5] } }, 'role.editor@example.com');
    openRoles('/role-Config?new=1', { permissions: twoLots });
    const panel = await screen.findByRole('region', { name: 'New role' });
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), 'Pike Place Market Garage');
    await userEvent.click(box(panel, 'Promo codes – add – Pike Place Market Garage'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Same access at all my locations' }));
    expect(within(panel).getByText('Promo codes: add at Pike Place Market Garage and LoDo Market Street Lot')).toBeInTheDocument();
    // The summary by location names both, each a way to open it.
    await userEvent.click(within(panel).getByRole('button', { name: 'LoDo Market Street Lot' }));
    expect(within(panel).getByLabelText('Location')).toHaveValue('5');
    expect(box(panel, 'Promo codes – add – LoDo Market Street Lot')).toBeChecked();
  });

  it('with 50 locations, grants a permission at the 50th and saves exactly that', async () => {
    const fifty = Array.from({ length: 50 }, (_, index) => index + 1);
    const lots = fifty.map((id) => ({ location_id: id, name: `Lot ${String(id).padStart(2, '0')}` }));
    const wide = permissionsFor({ ur: { v: fifty, a: fifty, e: fifty }, pc: { e: fifty } }, 'role.editor@example.com');
    const { calls, router } = openRoles('/role-Config', { permissions: wide, locations: lots });
    await userEvent.click(await screen.findByRole('button', { name: 'New role' }));
    const panel = await screen.findByRole('region', { name: 'New role' });
    expect(router.state.location.href).toBe('/role-Config?new=1');
    await userEvent.type(within(panel).getByLabelText('Role name'), 'Lot 50 promotions');
    const picker = within(panel).getByLabelText('Location');
    expect(within(picker).getAllByRole('option')).toHaveLength(50);
    await userEvent.selectOptions(picker, 'Lot 50');
    await userEvent.click(box(panel, 'Promo codes – add – Lot 50'));
    expect(within(picker).getByRole('option', { name: 'Lot 50 (1 feature)' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Review changes' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toEqual({
        method: 'POST',
        path: '/roles',
        payload: { name: 'Lot 50 promotions', permissions: { su: false, pc: { v: [], a: [50], e: [], d: [] } }, all_locations: {} },
      }),
    );
    // The new role has an address of its own from now on.
    expect(await screen.findByRole('region', { name: 'Edit role Lot 50 promotions' })).toBeInTheDocument();
    expect(router.state.location.href).toBe('/role-Config?edit=8');
  });

  it('opens Edit at its own address, which a reload (or a copied link) opens again; closing removes it', async () => {
    const first = openRoles('/role-Config?q=pike');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Pike promotions' }));
    await screen.findByRole('region', { name: 'Edit role Pike promotions' });
    const address = first.router.state.location.href;
    expect(address).toBe('/role-Config?q=pike&edit=7');
    first.unmount();

    const second = openRoles(address);
    const panel = await screen.findByRole('region', { name: 'Edit role Pike promotions' });
    expect(within(panel).getByLabelText('Role name')).toHaveValue('Pike promotions');
    expect(box(panel, 'Promo codes – view – Pike Place Market Garage')).toBeChecked();
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit role Pike promotions' })).toBeNull());
    expect(second.router.state.location.href).toBe('/role-Config?q=pike');
  });

  it('says a role that is not there is not found, with the way back to the list', async () => {
    const { router } = openRoles('/role-Config?edit=404');
    const panel = await screen.findByRole('region', { name: 'Role not found' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Back to the roles' }));
    await waitFor(() => expect(router.state.location.href).toBe('/role-Config'));
    expect(await screen.findByRole('table', { name: 'Roles' })).toBeInTheDocument();
  });

  it('is read-only for a viewer', async () => {
    openRoles('/role-Config', { permissions: permissionsFor({ ur: { v: [1] } }) });
    await userEvent.click(await screen.findByRole('button', { name: 'View Pike promotions' }));
    const panel = await screen.findByRole('region', { name: 'Pike promotions' });
    const boxes = [...panel.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes).toHaveLength(36);
    expect(boxes.filter((checkbox) => !checkbox.disabled)).toEqual([]);
    expect(within(panel).queryByRole('button', { name: 'Review changes' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Same access at all my locations' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New role' })).toBeNull();
  });

  it('offers "All locations, now and later" only to a holder of it, and saves it as its own grant', async () => {
    // Promo codes edit at every demo location, and at all locations, now and later, at view only.
    const holder = permissionsFor({ ur: { v: ALL, a: ALL, e: ALL }, pc: { e: ALL } }, 'role.editor@example.com');
    const { calls } = openRoles('/role-Config?new=1', { permissions: holder, mine: { pc: 'view' } });
    const panel = await screen.findByRole('region', { name: 'New role' });
    await userEvent.type(within(panel).getByLabelText('Role name'), 'Promo viewers everywhere');
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), 'All locations, now and later');
    const where = 'All locations, now and later';
    expect(box(panel, `Promo codes – view – ${where}`)).toBeEnabled();
    // Holding edit at every location of today is not holding it at locations added later.
    expect(box(panel, `Promo codes – add – ${where}`)).toBeDisabled();
    await userEvent.click(box(panel, `Promo codes – view – ${where}`));
    expect(within(panel).getByText('Promo codes: view at all locations, now and later')).toBeInTheDocument();
    // At a location of today the grant holds too: the box is ticked and not the place to change it.
    await userEvent.selectOptions(within(panel).getByLabelText('Location'), 'Pike Place Market Garage');
    expect(box(panel, 'Promo codes – view – Pike Place Market Garage')).toBeChecked();
    expect(box(panel, 'Promo codes – view – Pike Place Market Garage')).toBeDisabled();
    await userEvent.click(within(panel).getByRole('button', { name: 'Review changes' }));
    expect(within(within(panel).getByRole('status')).getByText('Adds Promo codes: view at all locations, now and later')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.payload).toEqual({
        name: 'Promo viewers everywhere',
        permissions: { su: false },
        all_locations: { pc: 'view' },
      }),
    );
  });

  it('does not offer "All locations, now and later" to an editor who does not hold it', async () => {
    openRoles('/role-Config?new=1');
    const panel = await screen.findByRole('region', { name: 'New role' });
    const picker = within(panel).getByLabelText('Location');
    expect(within(picker).queryByRole('option', { name: /All locations/ })).toBeNull();
  });
});
