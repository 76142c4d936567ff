import { describe, expect, it, vi } from 'vitest';
import { loadPermissions, lookupPermissions, validateUserLogin } from './auth';
import { createApiClient } from './client';
import { listLocations, updateLocation } from './locations';
import { permissionsFor } from '../../test/fixtures/personas';

function clientAnswering(data: unknown) {
  const fetch = vi.fn<typeof globalThis.fetch>(
    async () => new Response(JSON.stringify({ success: true, data }), { status: 200 }),
  );
  const client = createApiClient({
    apiBase: '/api',
    getIdToken: async () => 'id-token',
    getSessionToken: () => null,
    onSessionError: () => {},
    fetch,
  });
  const request = () => {
    const call = fetch.mock.calls[0];
    if (!call) throw new Error('fetch was not called');
    return { url: String(call[0]), method: call[1]?.method, body: call[1]?.body };
  };
  return { client, request };
}

describe('auth resources', () => {
  it('lookupPermissions posts the e-mail and returns userData', async () => {
    const userData = permissionsFor({ e: { v: [1] } }, 'officer@example.com');
    const { client, request } = clientAnswering({ userData });
    await expect(lookupPermissions(client, 'officer@example.com')).resolves.toEqual(userData);
    expect(request()).toEqual({
      url: '/api/auth/permissions',
      method: 'POST',
      body: JSON.stringify({ email: 'officer@example.com' }),
    });
  });

  it('validateUserLogin sends the token as a query parameter', async () => {
    const validation = { valid: true, email: 'officer@example.com', expiresAt: '2030-01-01T00:00:00Z' };
    const { client, request } = clientAnswering(validation);
    await expect(validateUserLogin(client, 'tok en')).resolves.toEqual(validation);
    expect(request()).toMatchObject({ url: '/api/validate-user-login/?token=tok+en', method: 'GET' });
  });

  it('loadPermissions returns userData', async () => {
    const userData = permissionsFor({ su: true });
    const { client, request } = clientAnswering({ userData });
    await expect(loadPermissions(client)).resolves.toEqual(userData);
    expect(request()).toMatchObject({ url: '/api/load-permissions/', method: 'GET' });
  });
});

describe('location resources', () => {
  const location = {
    location_id: 1,
    name: 'Main Street Garage',
    address: '1 Main St',
    time_zone: 'America/New_York',
    capacity: 120,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 10,
    version: 3,
    updated_at: '2026-11-20T15:00:00.000Z',
  };

  it('listLocations sends the list query as query parameters and returns the parsed page', async () => {
    const page = { rows: [location], total: 1, totalIsLowerBound: false, page: 2, pageSize: 10 };
    const { client, request } = clientAnswering(page);
    await expect(listLocations(client, { q: 'main', status: 'active', sort: 'capacity', dir: 'desc', page: 2, pageSize: 10 })).resolves.toEqual(page);
    expect(request()).toMatchObject({
      url: '/api/locations?q=main&status=active&sort=capacity&dir=desc&page=2&pageSize=10',
      method: 'GET',
    });
  });

  it('updateLocation posts the fields with the version it was made from', async () => {
    const { client, request } = clientAnswering({ ...location, version: 4 });
    const { location_id: _id, version: _version, updated_at: _at, ...fields } = location;
    await expect(updateLocation(client, 1, { ...fields, status: 'active', version: 3 })).resolves.toMatchObject({ version: 4 });
    expect(request()).toMatchObject({ url: '/api/locations/1', method: 'POST' });
    expect(JSON.parse(String(request().body))).toMatchObject({ name: 'Main Street Garage', version: 3 });
  });
});
