import { describe, expect, it, vi } from 'vitest';
import { loadPermissions, lookupPermissions, validateUserLogin } from '../../../src/api/auth';
import { createApiClient } from '../../../src/api/client';
import { listLocations } from '../../../src/api/locations';
import { permissionsFor } from '../../fixtures/personas';

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
  it('listLocations returns the parsed list', async () => {
    const location = {
      location_id: 1,
      name: 'Main Street Garage',
      address: '1 Main St',
      time_zone: 'America/New_York',
      capacity: 120,
      status: 'active',
      enforcement_enabled: true,
      grace_period_minutes: 10,
    };
    const { client, request } = clientAnswering([location]);
    await expect(listLocations(client)).resolves.toEqual([location]);
    expect(request()).toMatchObject({ url: '/api/locations', method: 'GET' });
  });
});
