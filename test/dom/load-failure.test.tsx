import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '../../src/api/client';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { fakeApi, renderConsole, SECTION_DEFAULTS } from './render-console';
import { demoLocation, sectionApi } from './section-api';

/** The real API client over a scripted server (status and body per path), and the spy the app's toast listens on. */
function clientAnswering(answers: Record<string, { status: number; body: unknown }>) {
  const onError = vi.fn();
  const api: ApiClient = createApiClient({
    apiBase: '/api',
    getIdToken: async () => 'id-token',
    getSessionToken: () => 'session-token',
    onSessionError: vi.fn(),
    onError,
    fetch: async (input) => {
      const path = new URL(String(input), 'http://console.test').pathname.replace(/^\/api/, '');
      const answer = answers[path];
      if (!answer) throw new Error(`unexpected API call ${path}`);
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return { api, onError };
}

const refusal = (locationId: number) => ({
  status: 403,
  body: { success: false, message: `You do not have permission to view location ${locationId}.` },
});

async function heading() {
  return (await screen.findByRole('heading', { level: 1 })).textContent;
}

/** Room for the console's first transform, which the file's first test waits for (seconds on a busy machine). */
const PATIENT = { timeout: 10_000 };

describe('a page whose loader fails', () => {
  it('refused by the server (403): the access-denied screen, no "Could not load", no Retry, no toast (spec §2)', async () => {
    // Locations at 1 only, opening location 4: the guard lets the section through, the server refuses the record.
    const { api, onError } = clientAnswering({ '/locations/4': refusal(4), '/locations/4/history': refusal(4), '/locations/4/violations': refusal(4) });
    renderConsole('/edit-location/4', { permissions: permissionsFor({ lo: { v: [1] } }), api });
    await waitFor(async () => expect(await heading()).toBe('Access denied'), PATIENT);
    expect(screen.queryByText(/Could not load/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Retry|Try again/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(onError).not.toHaveBeenCalled();
  });

  it('a failure a retry can fix (5xx): the page title, the reason and Retry, which loads again', async () => {
    let answer: unknown = new ApiError('Database is restarting', { status: 503 });
    const { api, calls } = sectionApi({
      get: {
        '/locations/3': () => {
          if (answer instanceof ApiError) throw answer;
          return answer;
        },
        '/locations/3/history': [], '/locations/3/violations': [],
      },
    });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    await waitFor(async () => expect(await heading()).toBe('Edit Location'), PATIENT);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Could not load this page')).toBeInTheDocument();
    expect(within(alert).getByText('Database is restarting')).toBeInTheDocument();

    answer = demoLocation(3);
    const before = calls.length;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText('Could not load this page')).toBeNull(), PATIENT);
    expect(calls.slice(before).map((call) => call.path)).toContain('/locations/3');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Location' }, PATIENT)).toBeInTheDocument();
    expect(screen.getByDisplayValue(demoLocation(3).name)).toBeInTheDocument();
  });

  it.each([
    ['no answer at all (network)', undefined],
    ['a timeout', 408],
    ['too many requests', 429],
    ['a server error', 500],
  ])('offers Retry for %s', async (_name, status) => {
    const failure = new ApiError('It did not work', status === undefined ? {} : { status });
    const { api } = sectionApi({ get: { '/locations/3': () => Promise.reject(failure), '/locations/3/history': [], '/locations/3/violations': [] } });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByRole('button', { name: 'Retry' }, PATIENT)).toBeInTheDocument();
  });

  it.each([
    ['a refused request', 400],
    ['a conflict', 409],
    ['an answer the console cannot read', 200],
  ])('offers no Retry for %s, which a retry would only repeat', async (_name, status) => {
    const failure = new ApiError('Unexpected response from the server', { status });
    const { api } = sectionApi({ get: { '/locations/3': () => Promise.reject(failure), '/locations/3/history': [], '/locations/3/violations': [] } });
    renderConsole('/edit-location/3', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByText('Unexpected response from the server', {}, PATIENT)).toBeInTheDocument();
    expect(screen.getByText('Could not load this page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('not found (404): says so, with the way back to the section', async () => {
    const { api } = sectionApi({
      get: { '/enforcement-lite/location-choices': () => Promise.reject(new ApiError('No such list.', { status: 404 })) },
    });
    renderConsole('/enforcement-lite/add-user', { permissions: personaPermissions('superuser'), api });
    await waitFor(async () => expect(await heading()).toBe('Not found'), PATIENT);
    expect(screen.getByText('No such list.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Enforcement Lite' })).toHaveAttribute('href', '/enforcement-lite');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it.each([
    ['/promo-codes/edit/41', 'Promo code not found', 'Back to Promo Codes', '/promo-codes'],
    ['/refund-portal/ticket-info/77', 'Ticket not found', 'Back to Refund Tickets', '/refund-portal'],
    ['/edit-location/99', 'Location not found', 'Back to locations', '/locations'],
  ])('a record that is not there (%s) offers the way back to its list', async (url, title, back, href) => {
    // The demo API answers 404 for promo code 41 and ticket 77 (SECTION_DEFAULTS).
    const missing = new ApiError('Location 99 not found.', { status: 404 });
    const api = fakeApi({ ...SECTION_DEFAULTS, '/locations/99': missing, '/locations/99/history': missing, '/locations/99/violations': missing });
    renderConsole(url, { permissions: personaPermissions('superuser'), api });
    await waitFor(async () => expect(await heading()).toBe(title), PATIENT);
    expect(screen.getByRole('link', { name: back })).toHaveAttribute('href', href);
  });

  it('a guard refusal is the same access-denied screen', async () => {
    renderConsole('/edit-location/3', { permissions: personaPermissions('promo') });
    await waitFor(async () => expect(await heading()).toBe('Access denied'), PATIENT);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
