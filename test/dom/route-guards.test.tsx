import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DemoPersona } from '../../server/db/seed/demo-accounts';
import type { SettledAuthView } from '../../src/routes/-shared/auth-gate';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';

/** Every route of spec §2, as a URL a user could type, with the heading its page shows when it opens. */
const ROUTES: Record<string, string> = {
  '/settled-dashboard': 'Settled Dashboard',
  '/list': 'Enforcement',
  '/rate-selection': 'Configure Rates',
  '/rates': 'Rate Changes',
  '/rates/changes/edit': 'Edit Rate Change',
  '/rates/changes/edit/1/22/333': 'Edit Rate Change',
  '/rate-config': 'Rate Configuration',
  '/promo-codes': 'Promo Codes',
  '/promo-codes/add': 'Add promo code',
  '/promo-codes/edit/41': 'Promo code not found',
  '/refund-portal': 'Refund Tickets',
  '/refund-portal/transactions': 'Transactions',
  '/refund-portal/ticket-info/77': 'Ticket not found',
  '/transactions': 'Transactions',
  // Not a transaction id: no such transaction (the route takes canonical numeric ids only).
  '/transactions/txn_123': 'Transaction not found',
  '/user-config': 'Users',
  '/role-Config': 'User Roles',
  '/locations': 'Locations',
  '/add-location': 'Add Location',
  '/add-location/success': 'Location Added',
  '/edit-location/3': 'Edit Location',
  '/mailing': 'Mailing',
  '/database-copy': 'Database Copy',
  '/enforcement-lite': 'Enforcement Lite',
  '/enforcement-lite/add-location': 'Enforcement Lite: Add Location',
  '/enforcement-lite/edit-location/2': 'Enforcement Lite: Edit Location',
  '/enforcement-lite/edit-user/9': 'Enforcement Lite: Edit User',
  '/enforcement-lite/add-user': 'Enforcement Lite: Add User',
};
const ALL = Object.keys(ROUTES);
const SUPERUSER_ONLY = ALL.filter((url) => /^\/(mailing|database-copy|enforcement-lite)/.test(url));

/** What each demo persona may open, written out by hand from the spec, not computed from the rules under test. */
const ALLOWED: Record<DemoPersona, string[]> = {
  superuser: ALL,
  admin: ALL.filter((url) => !SUPERUSER_ONLY.includes(url)),
  officer: ['/list'],
  finance: [
    '/settled-dashboard',
    '/refund-portal',
    '/refund-portal/transactions',
    '/refund-portal/ticket-info/77',
    '/transactions',
    '/transactions/txn_123',
  ],
  promo: ['/promo-codes', '/promo-codes/add', '/promo-codes/edit/41'],
  noaccess: [],
};

/** The page `/` shows each persona (spec §2: real-time dashboard, else settled dashboard, else home). */
const HOME: Record<DemoPersona, string> = {
  superuser: 'Real Time Dashboard',
  admin: 'Real Time Dashboard',
  officer: 'Home',
  finance: 'Real Time Dashboard',
  promo: 'Home',
  noaccess: 'Home',
};

async function heading() {
  return (await screen.findByRole('heading', { level: 1 })).textContent;
}

describe.each(Object.keys(ALLOWED) as DemoPersona[])('routes for the %s persona', (persona) => {
  it.each(ALL)('%s is allowed or denied as the spec says', async (url) => {
    renderConsole(url, { permissions: personaPermissions(persona) });
    const expected = ALLOWED[persona].includes(url) ? ROUTES[url] : 'Access denied';
    // The file's first test also waits for the whole console's first transform (over a second on a busy machine).
    await waitFor(async () => expect(await heading()).toBe(expected), { timeout: 3000 });
  });

  it('/ shows the page the spec says', async () => {
    renderConsole('/', { permissions: personaPermissions(persona) });
    await waitFor(async () => expect(await heading()).toBe(HOME[persona]));
  });
});

describe('routes for a signed-out visitor', () => {
  it.each(['/', ...ALL])('%s redirects to /login and remembers the page', async (url) => {
    const { router } = renderConsole(url, { permissions: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: url });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('special cases of the route table', () => {
  it('/ sends a user with only the settled dashboard to /settled-dashboard', async () => {
    const { router } = renderConsole('/', { permissions: permissionsFor({ sd: { v: [2] } }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settled-dashboard'));
    expect(await heading()).toBe('Settled Dashboard');
  });

  it('hides Database Copy from a superuser on the production admin host', async () => {
    renderConsole('/database-copy', { permissions: personaPermissions('superuser'), isProductionHost: true });
    await waitFor(async () => expect(await heading()).toBe('Access denied'));
  });

  it('opens the rate-change editor only with rate settings edit', async () => {
    renderConsole('/rates/changes/edit/1', { permissions: permissionsFor({ rs: { v: [1] } }) });
    await waitFor(async () => expect(await heading()).toBe('Access denied'));
  });

  it('opens /rates with rate settings view', async () => {
    renderConsole('/rates', { permissions: permissionsFor({ rs: { v: [1] } }) });
    await waitFor(async () => expect(await heading()).toBe('Rate Changes'));
  });

  it('refuses the promo-code editor to a view-only promo-code user', async () => {
    renderConsole('/promo-codes/edit/41', { permissions: permissionsFor({ pc: { v: [1] } }) });
    await waitFor(async () => expect(await heading()).toBe('Access denied'));
  });

  it('a superuser resumed from the stored session (no superuser flag) waits for confirmation, not "Access denied"', async () => {
    const superuser = personaPermissions('superuser');
    let confirm: (view: SettledAuthView) => void = () => {};
    renderConsole('/mailing', {
      permissions: { ...superuser, superuser: false },
      authEnabled: false,
      confirmed: new Promise((resolve) => (confirm = resolve)),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    confirm({ status: 'authenticated', permissions: superuser, authEnabled: true });
    await waitFor(async () => expect(await heading()).toBe('Mailing'));
  });

  it('a user resumed from the stored session is denied once the server confirms the session', async () => {
    const officer = personaPermissions('officer');
    renderConsole('/mailing', {
      permissions: officer,
      authEnabled: false,
      confirmed: Promise.resolve({ status: 'authenticated', permissions: officer, authEnabled: true }),
    });
    await waitFor(async () => expect(await heading()).toBe('Access denied'));
  });

  it('matches /role-Config case-sensitively, as the spec spells it', async () => {
    renderConsole('/role-config', { permissions: personaPermissions('superuser') });
    await waitFor(async () => expect(await heading()).toBe('Page not found'));
  });

  it('sends a signed-in user away from /login to the remembered page', async () => {
    const { router } = renderConsole('/login?redirect=%2Flist', { permissions: personaPermissions('officer') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
  });

  it('never follows a redirect to another site after sign-in', async () => {
    const { router } = renderConsole('/login?redirect=%2F%2Fevil.example.com', {
      permissions: personaPermissions('admin'),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('after sign-in sends a user whose permissions allow one section to it, others to /', async () => {
    for (const url of ['/login', '/login?redirect=%2F', '/login?redirect=%2F%2Fevil.example.com']) {
      const { router, unmount } = renderConsole(url, { permissions: personaPermissions('officer') });
      await waitFor(() => expect(router.state.location.pathname).toBe('/list'));
      unmount();
    }
    for (const [persona, home, heading1] of [
      ['promo', '/promo-codes', 'Promo Codes'],
      ['finance', '/', 'Real Time Dashboard'],
      ['noaccess', '/', 'Home'],
    ] as const) {
      const { router, unmount } = renderConsole('/login?redirect=%2F', { permissions: personaPermissions(persona) });
      await waitFor(() => expect(router.state.location.pathname).toBe(home));
      await waitFor(async () => expect(await heading()).toBe(heading1));
      unmount();
    }
  });

  it('keeps `/` as spec §2 says for a one-section user who opens it', async () => {
    const { router } = renderConsole('/', { permissions: personaPermissions('promo') });
    await waitFor(async () => expect(await heading()).toBe('Home'));
    expect(router.state.location.pathname).toBe('/');
  });
});
