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
    // The file's first test also waits for the whole console's first transform (over a second on a busy machine).
    await waitFor(async () => expect(await sidebarEntries()).toEqual(ENTRIES[persona]), { timeout: 3000 });
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
    // After a look at the device's unsent citations (none here).
    await waitFor(() => expect(services.logout).toHaveBeenCalledOnce());
  });

  it('highlights the current route', async () => {
    renderConsole('/promo-codes', { permissions: personaPermissions('admin') });
    const current = await screen.findByRole('link', { name: 'Promo Codes' });
    await waitFor(() => expect(current).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('link', { name: 'Real Time Dashboard' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Locations' })).not.toHaveAttribute('aria-current');
  });

  it('"Transactions" opens the transaction search, and is the current entry on its tickets and transactions too', async () => {
    const { router } = renderConsole('/refund-portal', { permissions: personaPermissions('finance') });
    const entry = async () => within(await screen.findByRole('navigation', { name: 'Sections' })).getByRole('link', { name: 'Transactions' });
    expect(await entry()).toHaveAttribute('href', '/refund-portal/transactions');
    await waitFor(async () => expect(await entry()).toHaveAttribute('aria-current', 'page'));
    await userEvent.click(await entry());
    await waitFor(() => expect(router.state.location.pathname).toBe('/refund-portal/transactions'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Transactions' })).toBeInTheDocument();
    expect(await entry()).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Real Time Dashboard' })).not.toHaveAttribute('aria-current');
  });
});

describe('sidebar width and toggle', () => {
  const sidebar = () => screen.queryByRole('complementary', { name: 'Sidebar' });

  it('is open beside the page at a window width of 1200 px, with no top bar', async () => {
    setWindowWidth(1200);
    renderConsole('/', { permissions: personaPermissions('admin') });
    const toggle = await screen.findByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(sidebar()).toHaveClass('sidebar-open');
    expect(screen.queryByRole('button', { name: 'Open sidebar' })).toBeNull();
  });

  it('collapses to a rail of icons at 1200 px and wider, each named, and opens again', async () => {
    renderConsole('/', { permissions: personaPermissions('admin') });
    await userEvent.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    expect(sidebar()).toHaveClass('sidebar-collapsed');
    expect(screen.getByRole('link', { name: 'Locations' })).toBeInTheDocument();
    expect(screen.queryByText('admin@example.com')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sidebar()).toHaveClass('sidebar-open');
  });

  it('below 1200 px is a closed drawer: nothing of it rendered, a menu button in the top bar', async () => {
    setWindowWidth(1199);
    renderConsole('/', { permissions: personaPermissions('admin') });
    const menu = await screen.findByRole('button', { name: 'Open sidebar' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(sidebar()).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Sections' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Locations' })).toBeNull();
    expect(screen.queryByText('admin@example.com')).toBeNull();
    // No rail left behind: the page is all there is beside the top bar.
    expect(document.querySelector('.sidebar')).toBeNull();

    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(sidebar()).toHaveClass('sidebar-drawer');
    expect(within(sidebar()!).getByText('admin@example.com')).toBeInTheDocument();
    expect(within(sidebar()!).getByRole('link', { name: 'Locations' })).toBeInTheDocument();
  });

  it('names each collapsed icon with a tooltip, and shows none while open', async () => {
    renderConsole('/', { permissions: personaPermissions('admin') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    await user.hover(screen.getByRole('link', { name: 'Locations' }));
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
    expect(await screen.findByRole('button', { name: 'Open sidebar' })).toBeInTheDocument();
    expect(sidebar()).toBeNull();
    act(() => setWindowWidth(1300));
    expect(await screen.findByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
  });

  it('offers "Skip to content" at the first Tab, which takes the focus to the page', async () => {
    renderConsole('/locations', { permissions: personaPermissions('admin') });
    await screen.findByRole('heading', { level: 1, name: 'Locations' });
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it('opens and closes the drawer from the keyboard: the skip link, then the menu button; Escape closes', async () => {
    setWindowWidth(1199);
    renderConsole('/', { permissions: personaPermissions('admin') });
    await screen.findByRole('button', { name: 'Open sidebar' });
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Open sidebar' })).toHaveFocus();
    await user.keyboard('{Enter}');
    // The focus follows into the drawer, on its close button.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Close sidebar' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(sidebar()).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open sidebar' })).toHaveFocus());

    await user.keyboard(' ');
    expect(sidebar()).not.toBeNull();
    await user.keyboard('{Enter}');
    expect(sidebar()).toBeNull();
  });

  it('closes the drawer once a section is chosen, or on a tap beside it', async () => {
    setWindowWidth(360);
    const { router } = renderConsole('/', { permissions: personaPermissions('admin') });
    await userEvent.click(await screen.findByRole('button', { name: 'Open sidebar' }));
    await userEvent.click(screen.getByRole('link', { name: 'Locations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'));
    expect(sidebar()).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(sidebar()).not.toBeNull();
    await userEvent.click(document.querySelector('.sidebar-backdrop')!);
    expect(sidebar()).toBeNull();
    expect(router.state.location.pathname).toBe('/locations');
  });
});
