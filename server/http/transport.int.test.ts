import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../app';
import { createTestApi, idTokenFor, TEST_ORIGIN } from '../testing/test-api';
import { useSeededApi } from '../testing/seeded-api';
import { BACKENDS } from '../testing/test-database';

/** The app over a real socket: keep-alive and Connection are HTTP/1.1 matters app.request() never sees. */
function listen(app: ReturnType<typeof createTestApi>['app']): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    server.once('listening', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    server.once('error', reject);
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the request went out on a socket an earlier request had used (keep-alive). */
  reusedSocket: boolean;
}

function request(port: number, agent: http.Agent, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Authorization: `Bearer ${idTokenFor('admin@example.com')}` };
    if (body !== undefined)
      Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reusedSocket: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends the headers of an oversized POST and the first part of its body, as a client uploading slowly would, and
 * reports the response head and whether the server then closes the connection (FIN) rather than resetting it.
 */
function oversizedUpload(port: number): Promise<{ head: string; closedCleanly: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let reset = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      else reject(error);
    });
    socket.on('close', () => resolve({ head: received.split('\r\n\r\n')[0] ?? '', closedCleanly: !reset }));
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`the server kept the connection open after: ${received.split('\r\n')[0]}`));
    });
    socket.write(
      [
        'POST /auth/permissions HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${MAX_BODY_BYTES + 1}`,
        'Connection: keep-alive',
        '',
        '{"email": "admin@example.com", "padding": "',
      ].join('\r\n'),
    );
  });
}

describe.each(BACKENDS)('HTTP transport on %s', (backend) => {
  const context = useSeededApi(backend);
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    ({ server, port } = await listen(context.api.app));
  });
  afterAll(async () => {
    await new Promise((resolve) => {
      server.close(resolve);
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  });

  describe('a body over the limit (413)', () => {
    it('says Connection: close and closes the connection cleanly, without waiting for the rest', async () => {
      const { head, closedCleanly } = await oversizedUpload(port);
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(closedCleanly).toBe(true);
    });

    it('does not cost a keep-alive client its next request', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        expect((await request(port, agent, 'GET', '/health')).status).toBe(200);
        const tooBig = await request(port, agent, 'POST', '/auth/permissions', 'x'.repeat(MAX_BODY_BYTES + 1));
        expect(tooBig.status).toBe(413);
        expect(tooBig.headers.connection).toBe('close');
        expect(JSON.parse(tooBig.body)).toEqual({ success: false, message: expect.stringMatching(/larger than/) });
        // The client drops the closed connection and opens a new one, rather than losing the request on it.
        const next = await request(port, agent, 'GET', '/health');
        expect(next.status).toBe(200);
        expect(next.reusedSocket).toBe(false);
      } finally {
        agent.destroy();
      }
    });
  });

  describe('headers on every response', () => {
    const expectNoStoreNoSniff = (headers: Headers, name: string) => {
      expect(headers.get('cache-control'), name).toBe('no-store');
      expect(headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(headers.get('content-security-policy'), name).toBe("default-src 'none'; frame-ancestors 'none'");
    };

    it('sends no-store and nosniff with sessions, personal data, errors and preflights alike', async () => {
      const api = context.api;
      const { token } = await api.signIn('officer@example.com');
      const officer = { idToken: idTokenFor('officer@example.com'), session: token };
      const cases: [string, Promise<{ status: number; headers: Headers }>, number][] = [
        [
          'the permissions lookup (a new session token)',
          api.call('POST', '/auth/permissions', { idToken: officer.idToken, json: { email: 'officer@example.com' } }),
          200,
        ],
        ['a session check', api.call('GET', `/validate-user-login/?token=${token}`), 200],
        ['the permissions reload', api.call('GET', '/load-permissions/', officer), 200],
        [
          'enforcement records',
          api.call('POST', '/enforcement/transactions', {
            ...officer,
            json: { type: 'valid', locationId: [1], limit: 10 },
          }),
          200,
        ],
        ['health', api.call('GET', '/health'), 200],
        ['the OpenAPI document', api.call('GET', '/openapi.json'), 200],
        ['a session error', api.call('GET', '/load-permissions/'), 401],
        ['a refusal', api.call('GET', '/locations', officer), 403],
        ['a bad request', api.call('POST', '/enforcement/transactions', { ...officer, json: { type: 'nope' } }), 400],
        ['an unknown route', api.call('GET', '/no/such/route'), 404],
        [
          'a preflight',
          Promise.resolve(
            api.app.request('/locations', {
              method: 'OPTIONS',
              headers: { Origin: TEST_ORIGIN, 'Access-Control-Request-Method': 'GET' },
            }),
          ),
          204,
        ],
      ];
      for (const [name, pending, status] of cases) {
        const result = await pending;
        expect(result.status, name).toBe(status);
        expectNoStoreNoSniff(result.headers, name);
      }
    });

    it('sends them with a server fault too', async () => {
      const failing = createTestApi({
        ...context.database.db,
        query: async () => {
          throw new Error('connection lost');
        },
      });
      const result = await failing.call('POST', '/auth/permissions', {
        idToken: idTokenFor('admin@example.com'),
        json: { email: 'admin@example.com' },
      });
      expect(result.status).toBe(500);
      expectNoStoreNoSniff(result.headers, '500');
    });

    it('sends them with a 413 over a real socket', async () => {
      const agent = new http.Agent({ keepAlive: false });
      try {
        const tooBig = await request(port, agent, 'POST', '/auth/permissions', 'x'.repeat(MAX_BODY_BYTES + 1));
        expect(tooBig.status).toBe(413);
        expect(tooBig.headers['cache-control']).toBe('no-store');
        expect(tooBig.headers['x-content-type-options']).toBe('nosniff');
      } finally {
        agent.destroy();
      }
    });
  });
});
