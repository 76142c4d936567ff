import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, createApiClient } from './client';
import { pageLoadOptions } from './page-load';

function clientAnswering(status: number) {
  const reported: number[] = [];
  const client = createApiClient({
    apiBase: '/api',
    getIdToken: async () => 'id-token',
    getSessionToken: () => null,
    onSessionError: () => undefined,
    onError: (error) => reported.push(error.status ?? 0),
    fetch: async () => new Response(JSON.stringify({ success: false, message: 'No' }), { status }),
  });
  return { client, reported };
}

describe('pageLoadOptions', () => {
  it.each([
    [403, false],
    [404, false],
    [400, true],
    [500, true],
  ])('a loader call answered %i is reported (a toast): %s', async (status, toasted) => {
    const { client, reported } = clientAnswering(status);
    const call = client.get('/locations/4', undefined, z.object({}), pageLoadOptions(new AbortController()));
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(reported).toEqual(toasted ? [status] : []);
  });

  it('cancels the call with the navigation', async () => {
    const controller = new AbortController();
    expect(pageLoadOptions(controller).signal).toBe(controller.signal);
  });
});
