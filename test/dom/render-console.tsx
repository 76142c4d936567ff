import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { ApiError, type ApiClient } from '../../src/api/client';
import type { AuthView, SettledAuthView } from '../../src/routes/-shared/auth-gate';
import { ConsoleProviders } from '../../src/app/console-providers';
import { createAppRouter } from '../../src/app/router';
import { SessionProvider, type SessionServices } from '../../src/routes/-shared/session-services';
import type { UserPermissions } from '../../src/permissions/permissions-object';

export function fakeServices(overrides: Partial<SessionServices> = {}): SessionServices {
  return {
    signIn: vi.fn(async () => undefined),
    sendPasswordReset: vi.fn(async () => undefined),
    passwordMinLength: vi.fn(async () => 6),
    logout: vi.fn(),
    ...overrides,
  };
}

export function fakeApi(data: Record<string, unknown> = {}): ApiClient {
  const answer = async (path: string) => {
    if (!(path in data)) throw new Error(`unexpected API call ${path}`);
    // An ApiError in the table is the server's refusal (a 404 for a record that does not exist).
    if (data[path] instanceof ApiError) throw data[path];
    return data[path];
  };
  return {
    get: (path) => answer(path),
    post: (path) => answer(path),
    download: async (path) => ({ blob: new Blob([String(await answer(path))]), fileName: 'export.csv' }),
    // A stream that stays open with nothing to say: screens keep what their loader gave them.
    stream: async () => new Response(new ReadableStream(), { headers: { 'Content-Type': 'text/event-stream' } }),
  } as ApiClient;
}

const EMPTY_PAGE = { rows: [], total: 0, totalIsLowerBound: false, page: 1, pageSize: 25 };

/** What the sections' loaders ask for when a test opens them without an API of its own: empty lists, location 3. */
export const SECTION_DEFAULTS: Record<string, unknown> = {
  '/locations': EMPTY_PAGE,
  '/locations/3': {
    location_id: 3,
    name: 'Pike Place Market Garage',
    address: '1531 Western Ave, Seattle, WA 98101',
    time_zone: 'America/Los_Angeles',
    capacity: 240,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 10,
    version: 1,
    updated_at: '2026-11-01T12:00:00.000Z',
  },
  '/locations/3/history': [], '/locations/3/violations': [],
  '/transactions': EMPTY_PAGE,
  '/transactions/locations': [],
  '/users': EMPTY_PAGE,
  '/roles': EMPTY_PAGE,
  '/roles/locations': [],
  '/rates/locations': [],
  '/promo-codes': EMPTY_PAGE,
  '/promo-codes/locations': [],
  '/refund-tickets': EMPTY_PAGE,
  '/rates/changes': EMPTY_PAGE,
  '/enforcement-lite/locations': EMPTY_PAGE,
  '/enforcement-lite/officers': EMPTY_PAGE,
  '/enforcement-lite/location-choices': [],
  '/enforcement-lite/locations/2': {
    location_id: 2,
    name: 'Corner Lot Lite',
    address: '5 Corner St, Austin, TX 78701',
    time_zone: 'America/Chicago',
    capacity: 40,
    grace_period_minutes: 5,
    operator_name: 'Corner Parking LLC',
    status: 'active',
    officer_count: 1,
    version: 1,
    updated_at: '2026-11-01T12:00:00.000Z',
  },
  '/enforcement-lite/locations/2/history': [],
  '/enforcement-lite/officers/9': {
    user_id: 9,
    email: 'lite.officer@example.com',
    display_name: 'Lite Officer',
    location_ids: [2],
    location_names: ['Corner Lot Lite'],
    status: 'active',
    last_sign_in_at: null,
    linked: true,
    version: 1,
    updated_at: '2026-11-01T12:00:00.000Z',
  },
  '/enforcement-lite/officers/9/history': [],
  '/database-copy/databases': { databases: [], tables: [] },
  '/database-copies': [],
  '/mailings/options': { locations: [], parkerStatuses: [], roles: [] },
  '/mailings': EMPTY_PAGE,
  '/promo-codes/41': new ApiError('Promo code 41 not found.', { status: 404, code: 'NotFound' }),
  '/refund-tickets/77': new ApiError('Ticket 77 not found.', { status: 404, code: 'NotFound' }),
};

/** Renders the real route tree at `url` for a signed-in user (permissions) or a signed-out visitor (null). */
export function renderConsole(
  url: string,
  options: {
    permissions: UserPermissions | null;
    isProductionHost?: boolean;
    authEnabled?: boolean;
    api?: ApiClient;
    services?: SessionServices;
    /** What the session turns out to be once confirmed (a session resumed from lpa); the same view by default. */
    confirmed?: Promise<SettledAuthView>;
  },
) {
  const view: SettledAuthView = options.permissions
    ? { status: 'authenticated', permissions: options.permissions, authEnabled: options.authEnabled ?? true }
    : { status: 'signedOut', loginError: null };
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createAppRouter(
    {
      auth: {
        current: (): AuthView => view,
        settled: async () => view,
        confirmed: () => options.confirmed ?? Promise.resolve(view),
      },
      api: options.api ?? fakeApi(SECTION_DEFAULTS),
      isProductionHost: options.isProductionHost ?? false,
    },
    history,
  );
  const services = options.services ?? fakeServices();
  const result = render(
    <ConsoleProviders>
      <SessionProvider services={services} view={view}>
        <RouterProvider router={router} />
      </SessionProvider>
    </ConsoleProviders>,
  );
  return { ...result, router, history, services };
}
