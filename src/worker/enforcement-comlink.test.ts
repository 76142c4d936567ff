import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { EnforcementApi } from './enforcement-api';
import type { SyncProgress } from './enforcement-worker-api';
import { API_BASE, ID_TOKEN } from '../../test/fixtures/fake-enforcement-server';
import { NOW, NOW_S, setup, until } from '../../test/fixtures/worker-test-kit';

/**
 * The second test tier: the same API across a MessageChannel with Comlink, as the page will use it (structured
 * cloning of requests and results, callbacks as proxies).
 */

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const { port1, port2 } of channels.splice(0)) {
    port1.close();
    port2.close();
  }
});

function overChannel(api: EnforcementApi): Comlink.Remote<EnforcementApi> {
  const channel = new MessageChannel();
  channels.push(channel);
  Comlink.expose(api, channel.port1);
  return Comlink.wrap<EnforcementApi>(channel.port2);
}

describe('the enforcement API over Comlink', () => {
  it('syncs with proxied auth and progress, then searches', async () => {
    const { api, server } = setup({ pageSize: 3 });
    for (let i = 0; i < 7; i++) server.transaction({ license_plate: `CL${i}X`, expiry_date_time_unix: NOW_S + 600, updated_at: NOW_S - 100 + i });
    const remote = overChannel(api);
    expect(await remote.open()).toMatchObject({ available: true, empty: true });

    let tokenCalls = 0;
    const auth = Comlink.proxy({
      getIdToken: async () => {
        tokenCalls++;
        return ID_TOKEN;
      },
      sessionToken: 'session-from-page',
    });
    const progress: SyncProgress[] = [];
    const onProgress = Comlink.proxy((p: SyncProgress) => {
      progress.push(p);
    });
    const result = await remote.syncType({ type: 'valid', apiBase: API_BASE, locationIds: [1], now: NOW }, auth, onProgress);
    expect(result).toEqual({ outcome: 'done', pages: 3, records: 7, stoppedBy: 'shortPage' });
    expect(tokenCalls).toBe(3);
    expect(server.calls.every((c) => c.headers.get('JwtToken') === 'session-from-page')).toBe(true);
    await until(() => progress.length === 3);
    expect(progress.at(-1)).toEqual({ type: 'valid', pagesDone: 3, recordsDone: 7 });

    const found = await remote.search({ text: 'cl', now: NOW });
    expect(found.valid.total).toBe(7);
    expect(found.valid.rows[0]).toMatchObject({ category: 'valid', license_plate: 'CL0X' });
    expect(await remote.status()).toMatchObject({ available: true, empty: false });
    await remote.flush();
    expect(await remote.purge(NOW)).toEqual({ purged: 0 });
    await remote.clear();
    expect((await remote.search({ text: 'cl', now: NOW })).valid.total).toBe(0);
  });

  it('carries failures and session errors back as results', async () => {
    const { api, server } = setup();
    server.transaction({ expiry_date_time_unix: NOW_S + 600 });
    server.fault = () => 'tokenExpired';
    const remote = overChannel(api);
    const result = await remote.syncType(
      { type: 'valid', apiBase: API_BASE, locationIds: [1], now: NOW },
      Comlink.proxy({ getIdToken: async () => ID_TOKEN, sessionToken: null }),
      Comlink.proxy(() => undefined),
    );
    expect(result).toEqual({ outcome: 'failed', pages: 0, records: 0, message: 'Session expired', sessionError: 'TokenExpired' });
  });
});
