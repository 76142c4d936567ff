import { MAX_BODY_BYTES } from './app';
import { describe, expect, it, vi } from 'vitest';
import { BACKENDS } from './testing/test-database';
import { createTestApi, idTokenFor, TEST_ORIGIN } from './testing/test-api';
import { useSeededApi } from './testing/seeded-api';

const REPORT = { demoAccounts: 6, files: [], failures: [], identities: { status: 'skipped' as const } };
/** What @hono/node-server passes as env; getConnInfo reads the peer address from it. */
const socketFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress, remotePort: 50_000 } } });

describe.each(BACKENDS)('app on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;

  it('answers /health without authentication', async () => {
    const result = await api().call('GET', '/health');
    expect(result).toMatchObject({ status: 200, body: { success: true, data: { ok: true } } });
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const result = await api().call('GET', '/no/such/route');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ success: false, message: 'Not found: GET /no/such/route' });
    expect((await api().call('DELETE', '/locations')).status).toBe(404);
  });

  it('publishes an OpenAPI 3.1 document listing every endpoint', async () => {
    const result = await api().call('GET', '/openapi.json');
    expect(result.status).toBe(200);
    const document = result.body as unknown as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [path, Object.keys(item)]))).toEqual(
      {
        '/health': ['get'],
        '/auth/permissions': ['post'],
        '/validate-user-login/': ['get'],
        '/load-permissions/': ['get'],
        '/locations': ['get', 'post'],
        '/locations/export': ['get'],
        '/locations/{locationId}': ['get', 'post'],
        '/locations/{locationId}/history': ['get'],
        '/locations/{locationId}/status': ['post'],
        '/locations/{locationId}/delete': ['post'],
        '/locations/{locationId}/violations': ['get', 'post'],
        '/locations/{locationId}/violations/{code}': ['post'],
        '/transactions': ['get'],
        '/transactions/export': ['get'],
        '/transactions/locations': ['get'],
        '/transactions/{transactionId}': ['get'],
        '/transactions/{transactionId}/history': ['get'],
        '/dashboards/realtime': ['get'],
        '/dashboards/realtime/stream': ['get'],
        '/dashboards/settled': ['get'],
        '/dashboards/settled/export': ['get'],
        '/enforcement/transactions': ['post'],
        '/transactions/{transactionId}/refunds': ['post'],
        '/refund-tickets': ['get', 'post'],
        '/refund-tickets/export': ['get'],
        '/refund-tickets/{ticketId}': ['get'],
        '/refund-tickets/{ticketId}/history': ['get'],
        '/refund-tickets/{ticketId}/notes': ['post'],
        '/refund-tickets/{ticketId}/decision': ['post'],
        '/promo-codes': ['get', 'post'],
        '/promo-codes/export': ['get'],
        '/promo-codes/redeem': ['post'],
        '/promo-codes/locations': ['get'],
        '/promo-codes/{promoCodeId}': ['get', 'post'],
        '/promo-codes/{promoCodeId}/history': ['get'],
        '/promo-codes/{promoCodeId}/status': ['post'],
        '/rates/locations': ['get'],
        '/rates/locations/{locationId}': ['get'],
        '/rates/locations/{locationId}/history': ['get'],
        '/rates/locations/{locationId}/config': ['post'],
        '/rates/locations/{locationId}/changes': ['post'],
        '/rates/changes': ['get'],
        '/rates/changes/export': ['get'],
        '/rates/changes/{rateSetId}': ['get'],
        '/rates/changes/{rateSetId}/cancel': ['post'],
        '/users': ['get', 'post'],
        '/users/export': ['get'],
        '/users/assignable-roles': ['get'],
        '/users/{userId}': ['get', 'post'],
        '/users/{userId}/history': ['get'],
        '/users/{userId}/new-role': ['post'],
        '/users/{userId}/status': ['post'],
        '/users/{userId}/delete': ['post'],
        '/roles': ['get', 'post'],
        '/roles/locations': ['get'],
        '/roles/mine/all-locations': ['get'],
        '/roles/{roleId}': ['get', 'post'],
        '/roles/{roleId}/history': ['get'],
        '/roles/{roleId}/delete': ['post'],
        '/enforcement-lite/locations': ['get', 'post'],
        '/enforcement-lite/location-choices': ['get'],
        '/enforcement-lite/locations/{locationId}': ['get', 'post'],
        '/enforcement-lite/locations/{locationId}/history': ['get'],
        '/enforcement-lite/officers': ['get', 'post'],
        '/enforcement-lite/officers/{userId}': ['get', 'post'],
        '/enforcement-lite/officers/{userId}/history': ['get'],
        '/database-copy/databases': ['get'],
        '/database-copy/counts': ['get'],
        '/database-copy/sample': ['get'],
        '/database-copies': ['get', 'post'],
        '/database-copies/{copyId}': ['get'],
        '/mailings/options': ['get'],
        '/mailings/preview': ['post'],
        '/mailings/test': ['post'],
        '/mailings': ['get', 'post'],
        '/mailings/{mailingId}': ['get'],
        '/citations': ['get', 'post'],
        '/citations/export': ['get'],
        '/citations/{citationId}': ['get'],
        '/citations/{citationId}/history': ['get'],
        '/citations/{citationId}/photos/{sha256}': ['post', 'get'],
        '/citation-violations': ['get'],
        '/citations/{citationId}/void': ['post'],
      },
    );
  });

  it('allows the console origin with credentials and the session header', async () => {
    const response = await api().app.request('/locations', {
      method: 'OPTIONS',
      headers: {
        Origin: TEST_ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'jwttoken',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/JwtToken/);
    // Error responses carry the headers too, or the browser would hide the envelope from the console.
    const refused = await api().call('GET', '/locations', { headers: { Origin: TEST_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN);
    // A CSV export names its file in Content-Disposition; a cross-origin console may only read it when exposed.
    expect(refused.headers.get('access-control-expose-headers')).toMatch(/Content-Disposition/);
  });

  it('does not allow other origins', async () => {
    const result = await api().call('GET', '/health', { headers: { Origin: 'https://evil.example' } });
    expect(result.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses oversized bodies with 413', async () => {
    const result = await api().call('POST', '/auth/permissions', {
      idToken: idTokenFor('admin@example.com'),
      json: { email: 'admin@example.com', padding: 'x'.repeat(MAX_BODY_BYTES + 1) },
    });
    expect(result.status).toBe(413);
    expect(result.body.success).toBe(false);
  });

  it('turns a database failure into a logged 500 without details', async () => {
    const failing = createTestApi({
      ...context.database.db,
      query: async () => {
        throw new Error('connection lost');
      },
    });
    const result = await failing.call('POST', '/auth/permissions', {
      idToken: idTokenFor('admin@example.com'),
      json: { email: 'admin@example.com' },
      headers: { Origin: TEST_ORIGIN },
    });
    expect(result.status).toBe(500);
    expect(result.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN);
    expect(result.body).toEqual({ success: false, message: 'Internal server error' });
    expect(failing.serverErrors).toHaveLength(1);
  });

  describe('POST /dev/reseed', () => {
    it('exists only when the dev seed is on', async () => {
      const result = await api().call('POST', '/dev/reseed', { env: socketFrom('127.0.0.1') });
      expect(result.status).toBe(404);
    });

    it('re-applies the seed for local callers only', async () => {
      const devReseed = vi.fn(async () => REPORT);
      const dev = createTestApi(context.database.db, { devReseed });
      expect((await dev.call('POST', '/dev/reseed', { env: socketFrom('127.0.0.1') })).body).toEqual({
        success: true,
        data: REPORT,
      });
      expect((await dev.call('POST', '/dev/reseed', { env: socketFrom('::1') })).status).toBe(200);
      expect((await dev.call('POST', '/dev/reseed', { env: socketFrom('192.168.1.20') })).status).toBe(403);
      expect((await dev.call('POST', '/dev/reseed')).status).toBe(403);
      const fromPage = await dev.call('POST', '/dev/reseed', {
        env: socketFrom('127.0.0.1'),
        headers: { Origin: 'https://evil.example' },
      });
      expect(fromPage.status).toBe(403);
      expect(devReseed).toHaveBeenCalledTimes(2);
    });
  });
});
