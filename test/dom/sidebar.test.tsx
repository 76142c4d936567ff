import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DemoPersona } from '../../server/db/seed/demo-accounts';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { setWindowWidth } from './window-width';

const EVERY_ENTRY = [
  'Real Time Dashboard',
  'Settled Dashboard',
  'Enforcement',
  'Configure Rates',
  'Rate Changes',
  'Locations',
  'Promo Codes',
  'Transactions',
  'Users',
  'User Roles',
  'Enforcement Lite',
  'Mailing',
  'Database Copy',
];

/** Written out by hand from spec §2 and §6 for each demo persona. */
const ENTRIES: Record<DemoPersona, string[]> = {
  superuser: EVERY_ENTRY,
  admin: EVERY_ENTRY.slice(0, 10),
  officer: ['Enforcement'],
  finance: ['Real Time Dashboard', 'Settled Dashboard', 'Transactions'],
  promo: ['Promo Codes'],
  noaccess: [],
};

async function sidebarEntries(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: 'Sections' });
  return within(nav)
    .queryAllByRole('link')
    .map((link) => link.textContent ?? '');
}

describe('sidebar entries', () => {
  it.each(Object.keys(ENTRIES) as DemoPersona[])('the %s persona sees exactly its entries', async (persona) => {
    renderConsole('/', { permissions: personaPermissions(persona) });
    await waitFor(async () => expect(await sidebarEntries()).toEqual(ENTRIES[persona]));
  });

  it('hides Database Copy on the production admin host', async () => {
    renderConsole('/', { permissions: personaPermissions('superuser'), isProductionHost: true });
    await waitFor(async () => expect(await sidebarEntries()).toEqual(EVERY_ENTRY.filter((e) => e !== 'Database Copy')));
  });

  it('without authentication enabled shows only the entries that do not need it', async () => {
    renderConsole('/', { permissions: personaPermissions('superuser'), authEnabled: false });
    await waitFor(async () =>
      expect(await sidebarEntries()).toEqual(['Enforcement', 'Enforcement Lite', 'Mailing', 'Database Copy']),
    );
  });

  it('shows the initials, the display name, the e-mail and a Logout link that logs out', async () => {
    const { services } = renderConsole('/', { permissions: personaPermissions('officer') });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Lightning Pay Admin')).toBeInTheDocument();
    expect(within(sidebar).getByText('O', { exact: true })).toBeInTheDocument();
    expect(within(sidebar).getByText('Officer')).toBeInTheDocument();
    expect(within(sidebar).getByText('officer@example.com')).toBeInTheDocument();
    await userEvent.click(within(sidebar).getByRole('link', { name: 'Logout' }));
    expect(services.logout).toHaveBeenCalledOnce();
  });

  it('highlights the current route', async () => {
    renderConsole('/refund-portal', { permissions: personaPermissions('finance') });
    const current = await screen.findByRole('link', { name: 'Transactions' });
    await waitFor(() => expect(current).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('link', { name: 'Real Time Dashboard' })).not.toHaveAttribute('aria-current');
  });
});

describe('sidebar width and toggle', () => {
  it('is open at a window width of 1200 px', async () => {
    setWindowWidth(1200);
    renderConsole('/', { permissions: personaPermissions('admin') });
    const toggle = await screen.findByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toHaveClass('sidebar-open');
  });

  it('is collapsed at 1199 px, showing icons named for assistive technology', async () => {
    setWindowWidth(1199);
    renderConsole('/', { permissions: personaPermissions('admin') });
    const toggle = await screen.findByRole('button', { name: 'Expand sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toHaveClass('sidebar-collapsed');
    expect(screen.getByRole('link', { name: 'Locations' })).toBeInTheDocument();
    expect(screen.queryByText('admin@example.com')).not.toBeInTheDocument();
  });

  it('names each collapsed icon with a tooltip, and shows none while open', async () => {
    setWindowWidth(1199);
    renderConsole('/', { permissions: personaPermissions('admin') });
    const user = userEvent.setup();
    await user.hover(await screen.findByRole('link', { name: 'Locations' }));
    expect(await screen.findByRole('tooltip', { name: 'Locations' }, { timeout: 2000 })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    await user.hover(screen.getByRole('link', { name: 'Locations' }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('follows the window across the breakpoint', async () => {
    setWindowWidth(1400);
    renderConsole('/', { permissions: personaPermissions('admin') });
    expect(await screen.findByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
    act(() => setWindowWidth(1100));
    expect(await screen.findByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });

  it('toggles from the keyboard', async () => {
    setWindowWidth(1199);
    renderConsole('/', { permissions: personaPermissions('admin') });
    await screen.findByRole('button', { name: 'Expand sidebar' });
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on a phone once a section is chosen', async () => {
    setWindowWidth(360);
    const { router } = renderConsole('/', { permissions: personaPermissions('admin') });
    await userEvent.click(await screen.findByRole('button', { name: 'Expand sidebar' }));
    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'));
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });
});
