import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { SESSION_HEADER, type SessionErrorCode } from '../contract/envelope';
import { ApiError, buildQueryString, createApiClient, NETWORK_ERROR_MESSAGE, type ApiClientOptions } from './client';

const API_BASE = 'https://api.example.test/api/';
const itemSchema = z.object({ id: z.number() });

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup(
  respond: (url: string, init: RequestInit) => Response | Promise<Response>,
  overrides: Partial<ApiClientOptions> = {},
) {
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => respond(String(input), init ?? {}));
  const onSessionError = vi.fn<(code: SessionErrorCode) => void>();
  const client = createApiClient({
    apiBase: API_BASE,
    getIdToken: async () => 'firebase-id-token',
    getSessionToken: () => 'session-token',
    onSessionError,
    fetch,
    ...overrides,
  });
  const lastCall = () => {
    const call = fetch.mock.calls.at(-1);
    if (!call) throw new Error('fetch was not called');
    return { url: String(call[0]), init: call[1] ?? {}, headers: new Headers(call[1]?.headers) };
  };
  return { client, fetch, onSessionError, lastCall };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('requests', () => {
  it('sends GET payloads as query parameters, arrays as repeated keys', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }));
    await client.get('/enforcement/transactions', { locationId: [1, 2], limit: 2000, skip: undefined, q: null }, itemSchema);
    const { url, init } = lastCall();
    expect(url).toBe('https://api.example.test/api/enforcement/transactions?locationId=1&locationId=2&limit=2000');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('appends the query to a path that already has one', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }));
    await client.get('/enforcement/transactions?type=valid', { limit: 5 }, itemSchema);
    expect(lastCall().url).toBe('https://api.example.test/api/enforcement/transactions?type=valid&limit=5');
  });

  it('leaves the query string out when there is no payload', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }));
    await client.get('/locations', undefined, itemSchema);
    expect(lastCall().url).toBe('https://api.example.test/api/locations');
  });

  it('sends POST payloads as JSON', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }));
    await client.post('/auth/permissions', { email: 'a@example.com', locationId: [1] }, itemSchema);
    const { init, headers } = lastCall();
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'a@example.com', locationId: [1] });
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends the bearer ID token, the JwtToken session header and credentials', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }));
    await client.get('/locations', undefined, itemSchema);
    const { init, headers } = lastCall();
    expect(headers.get('Authorization')).toBe('Bearer firebase-id-token');
    expect(headers.get(SESSION_HEADER)).toBe('session-token');
    expect(init.credentials).toBe('include');
  });

  it('leaves JwtToken out when there is no stored session', async () => {
    const { client, lastCall } = setup(() => jsonResponse({ success: true, data: { id: 1 } }), {
      getSessionToken: () => null,
    });
    await client.post('/auth/permissions', { email: 'a@example.com' }, itemSchema);
    expect(lastCall().headers.has(SESSION_HEADER)).toBe(false);
  });

  it('resolves with the data, typed and parsed by the schema', async () => {
    const { client } = setup(() => jsonResponse({ success: true, data: { id: 7, extra: true } }));
    await expect(client.get('/x', undefined, itemSchema)).resolves.toEqual({ id: 7 });
  });

  it('passes the abort signal to fetch and lets an abort through unchanged', async () => {
    const controller = new AbortController();
    const { client, lastCall } = setup(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    controller.abort();
    await expect(client.get('/x', undefined, itemSchema, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(lastCall().init.signal).toBe(controller.signal);
  });
});

describe('errors', () => {
  it('fails with an empty message and sends nothing when there is no Firebase token', async () => {
    const { client, fetch } = setup(() => jsonResponse({ success: true, data: { id: 1 } }), {
      getIdToken: async () => null,
    });
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.message).toBe('');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fails with a clear message and sends nothing when the Firebase token cannot be had', async () => {
    const { client, fetch } = setup(() => jsonResponse({ success: true, data: { id: 1 } }), {
      getIdToken: async () => {
        throw new Error('auth/network-request-failed');
      },
    });
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.message).toBe('Could not get the sign-in token: auth/network-request-failed');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fails with the server message when success is false', async () => {
    const { client } = setup(() => jsonResponse({ success: false, message: 'Promo code already exists' }));
    const error = await rejection(client.post('/promo-codes', {}, itemSchema));
    expect(error.message).toBe('Promo code already exists');
    expect(error.status).toBe(200);
  });

  it.each([
    ['error', { success: false, error: 'Forbidden', message: 'ignored', data: 'ignored' }, 'Forbidden'],
    ['message', { success: false, message: 'Location not found', data: 'ignored' }, 'Location not found'],
    ['data', { data: 'Rate limit reached' }, 'Rate limit reached'],
    ['data (not a string)', { data: { reason: 'locked' } }, '{"reason":"locked"}'],
    ['message (not a string)', { message: 42 }, '42'],
  ])('fails an HTTP error with the body’s %s', async (_, body, message) => {
    const { client, onSessionError } = setup(() => jsonResponse(body, 403));
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.message).toBe(message);
    expect(error.status).toBe(403);
    expect(onSessionError).not.toHaveBeenCalled();
  });

  it('keeps the error code of an HTTP error', async () => {
    const { client } = setup(() => jsonResponse({ success: false, error: 'Forbidden', message: 'No access' }, 403));
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.code).toBe('Forbidden');
  });

  it('fails an HTTP error whose body carries none of error, message, data with the status', async () => {
    const { client } = setup(() => jsonResponse({ success: false }, 500));
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.message).toBe('Request failed (HTTP 500)');
  });

  it.each([
    [502, '<html>Bad Gateway</html>'],
    [200, 'OK'],
    [204, ''],
  ])('fails a body that is not JSON (HTTP %i) with a generic message naming the status', async (status, text) => {
    const { client } = setup(() => new Response(status === 204 ? null : text, { status }));
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(error.message).toBe(`Unexpected response from the server (HTTP ${status}): the body is not JSON`);
    expect(error.status).toBe(status);
  });

  it('fails a network failure with a clear message', async () => {
    const { client } = setup(() => {
      throw new TypeError('fetch failed');
    });
    const error = await rejection(client.post('/x', {}, itemSchema));
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
    expect(error.message).toBe('Network error: could not reach the server');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it.each(['TokenExpired', 'NoTokenProvided', 'InvalidToken'] as const)(
    'reports the session error %s from a 401 and fails',
    async (code) => {
      const { client, onSessionError } = setup(() =>
        jsonResponse({ success: false, error: code, message: 'Session is no longer valid' }, 401),
      );
      const error = await rejection(client.get('/x', undefined, itemSchema));
      expect(onSessionError).toHaveBeenCalledExactlyOnceWith(code);
      expect(error.code).toBe(code);
      expect(error.status).toBe(401);
      expect(error.message).toBe('Session is no longer valid');
    },
  );

  it('reports a session error whatever the status', async () => {
    const { client, onSessionError } = setup(() => jsonResponse({ success: false, error: 'TokenExpired' }, 200));
    const error = await rejection(client.get('/x', undefined, itemSchema));
    expect(onSessionError).toHaveBeenCalledExactlyOnceWith('TokenExpired');
    expect(error.message).toBe('TokenExpired');
  });

  it('fails a success response that is not an envelope, naming the problem', async () => {
    const { client } = setup(() => jsonResponse({ ok: true }));
    const error = await rejection(client.get('/locations', undefined, itemSchema));
    expect(error.message).toMatch(/^Unexpected response from the server for GET \/locations: success: /);
  });

  it('fails data that does not match its schema, naming the field', async () => {
    const { client } = setup(() => jsonResponse({ success: true, data: { id: 'seven' } }));
    const error = await rejection(client.get('/locations', undefined, itemSchema));
    expect(error.message).toMatch(/^Unexpected response from the server for GET \/locations: data id: /);
    expect(error.status).toBe(200);
  });
});

describe('buildQueryString', () => {
  it('encodes values and skips empty ones', () => {
    expect(buildQueryString({ email: 'a+b@example.com', flag: false, ids: [3, null, 4] })).toBe(
      'email=a%2Bb%40example.com&flag=false&ids=3&ids=4',
    );
    expect(buildQueryString(undefined)).toBe('');
  });
});

describe('onError', () => {
  it('reports failed calls with the server message, but not session errors or aborts', async () => {
    const reported: string[] = [];
    const responses = [
      new Response(JSON.stringify({ success: false, message: 'Promo code already exists' }), { status: 400 }),
      new Response(JSON.stringify({ success: false, error: 'TokenExpired', message: 'expired' }), { status: 401 }),
    ];
    const client = createApiClient({
      apiBase: 'https://api.test',
      getIdToken: async () => 'id-token',
      getSessionToken: () => 'session',
      onSessionError: () => undefined,
      onError: (error) => reported.push(error.message),
      fetch: async () => responses.shift() ?? Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
    });
    const schema = z.unknown();
    await expect(client.post('/promo-codes', {}, schema)).rejects.toThrow('Promo code already exists');
    await expect(client.get('/x', undefined, schema)).rejects.toThrow();
    await expect(client.get('/y', undefined, schema)).rejects.toThrow('aborted');
    expect(reported).toEqual(['Promo code already exists']);
  });
});
