import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { SESSION_HEADER, type SessionErrorCode } from '../contract/envelope';
import {
  ApiError,
  buildQueryString,
  createApiClient,
  NETWORK_ERROR_MESSAGE,
  type ApiClientOptions,
} from './client';
import { fileNameFromDisposition } from './download-body';
import { fieldErrorsOf, versionConflictOf } from './error-data';

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

describe('error data', () => {
  it('keeps the error body’s data: who changed a record for a 409, field errors for a 400', async () => {
    const conflict = { currentVersion: 4, changedAt: '2026-11-20T18:04:00Z', changedBy: { email: 'jane@example.com', name: 'Jane' } };
    const { client } = setup(() => jsonResponse({ success: false, message: 'Location 3 was changed by Jane', data: conflict }, 409));
    const error = await rejection(client.post('/locations/3', {}, itemSchema));
    expect(error).toMatchObject({ status: 409, message: 'Location 3 was changed by Jane', data: conflict });
    expect(versionConflictOf(error)).toEqual(conflict);
    expect(fieldErrorsOf(error)).toBeNull();

    const fields = { fieldErrors: { name: 'A location named "X" already exists.' } };
    const invalid = setup(() => jsonResponse({ success: false, message: 'Invalid request body', data: fields }, 400));
    const fieldError = await rejection(invalid.client.post('/locations', {}, itemSchema));
    expect(fieldErrorsOf(fieldError)).toEqual(fields.fieldErrors);
    expect(versionConflictOf(fieldError)).toBeNull();
  });

  it('reads nothing from data that does not match the contract', async () => {
    const { client } = setup(() => jsonResponse({ success: false, message: 'Conflict', data: { changedBy: 'someone' } }, 409));
    expect(versionConflictOf(await rejection(client.post('/x', {}, itemSchema)))).toBeNull();
    expect(versionConflictOf(new Error('not an API error'))).toBeNull();
  });

  it('does not report the statuses a screen shows in place', async () => {
    const reported: string[] = [];
    const { client } = setup(() => jsonResponse({ success: false, message: 'Stale version' }, 409), {
      onError: (error) => reported.push(error.message),
    });
    await rejection(client.post('/locations/3', {}, itemSchema, { quietStatuses: [400, 409] }));
    expect(reported).toEqual([]);
    await rejection(client.post('/locations/3', {}, itemSchema, { quietStatuses: [400] }));
    expect(reported).toEqual(['Stale version']);
  });
});

describe('download', () => {
  const csv = '\uFEFFLocation ID,Name\r\n1,Union Station Garage\r\n2,Navy Pier East Lot\r\n';
  const csvResponse = (headers: Record<string, string> = {}) =>
    new Response(csv, {
      status: 200,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="locations-2026-11-23.csv"', ...headers },
    });

  it('sends the same headers and query as other calls, and returns the file with the server’s name', async () => {
    const { client, lastCall } = setup(() => csvResponse());
    const progress: number[] = [];
    const file = await client.download('/locations/export', { status: 'active', q: undefined }, {
      fallbackFileName: 'fallback.csv',
      onProgress: (bytes) => progress.push(bytes),
    });
    const { url, init, headers } = lastCall();
    expect(url).toBe('https://api.example.test/api/locations/export?status=active');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('include');
    expect(headers.get('Authorization')).toBe('Bearer firebase-id-token');
    expect(headers.get(SESSION_HEADER)).toBe('session-token');
    expect(file.fileName).toBe('locations-2026-11-23.csv');
    // Byte for byte, the byte-order mark included (spreadsheets need it for names like São Paulo).
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(new TextEncoder().encode(csv));
    expect(progress.at(-1)).toBe(new TextEncoder().encode(csv).byteLength);
  });

  it('uses the fallback name when the response names none (a cross-origin header the browser hides)', async () => {
    const { client } = setup(() => new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv' } }));
    const file = await client.download('/locations/export', undefined, { fallbackFileName: 'locations-today.csv' });
    expect(file.fileName).toBe('locations-today.csv');
  });

  it('fails a refusal like any other call, reporting it', async () => {
    const reported: string[] = [];
    const { client } = setup(
      () => jsonResponse({ success: false, message: 'You do not have permission to view transactions.' }, 403),
      { onError: (error) => reported.push(error.message) },
    );
    const error = await rejection(client.download('/transactions/export', undefined, { fallbackFileName: 'x.csv' }));
    expect(error).toMatchObject({ status: 403, message: 'You do not have permission to view transactions.' });
    expect(reported).toEqual(['You do not have permission to view transactions.']);
  });

  it('ends the session on a session error', async () => {
    const { client, onSessionError } = setup(() => jsonResponse({ success: false, error: 'TokenExpired', message: 'expired' }, 401));
    await rejection(client.download('/locations/export', undefined, { fallbackFileName: 'x.csv' }));
    expect(onSessionError).toHaveBeenCalledExactlyOnceWith('TokenExpired');
  });

  it('never hands over a file cut short: a stream aborted midway fails', async () => {
    const { client } = setup(() => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new TextEncoder().encode('Location ID,Name\r\n'));
          } else controller.error(new Error('database went away'));
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/csv' } });
    });
    const error = await rejection(client.download('/locations/export', undefined, { fallbackFileName: 'x.csv' }));
    expect(error.message).toBe('The download was interrupted; nothing was saved. Try again.');
  });
});

describe('fileNameFromDisposition', () => {
  it.each([
    ['attachment; filename="locations-2026-11-23.csv"', 'locations-2026-11-23.csv'],
    ['attachment; filename=transactions.csv', 'transactions.csv'],
    ["attachment; filename*=UTF-8''S%C3%A3o%20Paulo.csv; filename=\"Sao Paulo.csv\"", 'São Paulo.csv'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', null],
    [null, null],
  ])('%s → %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });
});
